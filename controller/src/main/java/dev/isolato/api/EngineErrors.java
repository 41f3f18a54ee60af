package dev.isolato.api;

import dev.isolato.calibration.FieldError;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;

/** Pure: a class the SLO engine cannot use, as the API's problem+json. */
final class EngineErrors {
  private EngineErrors() {}

  /**
   * 422 for errors in what the class declares (not in the request): the request is fine, the class
   * cannot be used by the engine, e.g. a p99.9 target (the engine reads p50/p90/p95/p99).
   */
  static ApiException classUnusable(String sloClass, String what, List<FieldError> errors) {
    String detail =
        "SLO class '"
            + sloClass
            + "' cannot be "
            + what
            + ": "
            + String.join("; ", errors.stream().map(f -> f.field() + " " + f.message()).toList());
    return new ApiException(
        HttpStatus.UNPROCESSABLE_ENTITY,
        "SLO class unusable by the SLO engine",
        detail,
        Map.of("field", "sloClass", "errors", errors));
  }
}
