package dev.isolato.api;

import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;

/** Pure: the SLO engine's field errors as the API's problem+json errors. */
final class EngineErrors {
  private EngineErrors() {}

  /** One to one: the engine already names fields by their JSON path in the request. */
  static List<FieldError> toApi(List<dev.isolato.slo.FieldError> errors) {
    return errors.stream().map(e -> new FieldError(e.field(), e.message())).toList();
  }

  /**
   * 422 for errors in what the class declares (not in the request): the request is fine, the
   * class cannot be used by the engine, e.g. a p99.9 target (the engine reads p50/p90/p95/p99).
   */
  static ApiException classUnusable(String sloClass, String what, List<FieldError> errors) {
    String detail = "SLO class '" + sloClass + "' cannot be " + what + ": "
        + String.join("; ", errors.stream().map(f -> f.field() + " " + f.message()).toList());
    return new ApiException(HttpStatus.UNPROCESSABLE_ENTITY, "SLO class unusable by the SLO engine", detail,
        Map.of("field", "sloClass", "errors", errors));
  }
}
