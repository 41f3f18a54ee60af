package dev.isolato.calibration;

/**
 * One invalid field named by its JSON path, e.g. {@code steps[3].offeredRps: must be > 0}: what the
 * validators return and what a 400 problem of the REST API lists in {@code errors}.
 */
public record FieldError(String field, String message) {
  @Override
  public String toString() {
    return field + ": " + message;
  }
}
