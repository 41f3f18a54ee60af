package dev.isolato.slo;

/**
 * A validation error naming the offending field by its JSON path, e.g.
 * {@code steps[3].offeredRps: must be > 0}.
 */
public record FieldError(String field, String message) {
  @Override
  public String toString() {
    return field + ": " + message;
  }
}
