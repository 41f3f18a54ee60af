package dev.isolato.api;

import dev.isolato.calibration.FieldError;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.function.Function;
import org.springframework.http.HttpStatus;

/** Paged lists (limit, continue) straight from the API server. */
final class Pages {
  static final int MAX_LIMIT = 1000;

  private Pages() {}

  /**
   * One page; 400 for a limit out of range, 422 for a continue token the API server does not take.
   */
  static <L extends KubernetesResourceList<?>> L fetch(
      int limit, String continueToken, Function<ListOptions, L> list) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw ApiException.invalid(
          List.of(
              new FieldError("limit", "must be between 1 and " + MAX_LIMIT + ", was " + limit)));
    }
    try {
      return list.apply(
          new ListOptionsBuilder().withLimit((long) limit).withContinue(continueToken).build());
    } catch (KubernetesClientException e) {
      if (continueToken != null && (e.getCode() == 400 || e.getCode() == 410)) {
        throw new ApiException(
            HttpStatus.UNPROCESSABLE_ENTITY,
            "Continue token not usable",
            "continue is not a token of this list or has expired; list again without it",
            java.util.Map.of("field", "continue"));
      }
      throw e;
    }
  }

  /** The token of the next page, or null on the last one. */
  static String next(KubernetesResourceList<?> page) {
    String next = page.getMetadata().getContinue();
    return next == null || next.isEmpty() ? null : next;
  }
}
