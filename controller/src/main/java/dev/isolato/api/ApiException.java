package dev.isolato.api;

import dev.isolato.calibration.FieldError;
import java.util.Map;
import org.springframework.http.HttpStatus;

/** An error the API answers with a problem+json body (RFC 9457). */
public class ApiException extends RuntimeException {
  private final HttpStatus status;
  private final String title;
  private final Map<String, Object> properties;

  public ApiException(
      HttpStatus status, String title, String detail, Map<String, Object> properties) {
    super(detail);
    this.status = status;
    this.title = title;
    this.properties = Map.copyOf(properties);
  }

  public ApiException(HttpStatus status, String title, String detail) {
    this(status, title, detail, Map.of());
  }

  public static ApiException invalid(java.util.List<FieldError> errors) {
    return new ApiException(
        HttpStatus.BAD_REQUEST, "Invalid request", detail(errors), Map.of("errors", errors));
  }

  /**
   * 422: the body is well formed but asks for something Isolato refuses (a pod template the
   * restricted Pod Security profile forbids), each problem naming its field.
   */
  public static ApiException refused(String title, java.util.List<FieldError> errors) {
    return new ApiException(
        HttpStatus.UNPROCESSABLE_ENTITY, title, detail(errors), Map.of("errors", errors));
  }

  private static String detail(java.util.List<FieldError> errors) {
    return errors.stream()
        .map(f -> f.field() + " " + f.message())
        .reduce((a, b) -> a + "; " + b)
        .orElse("invalid request");
  }

  public static ApiException notFound(String what, String name) {
    return new ApiException(
        HttpStatus.NOT_FOUND, what + " not found", what + " '" + name + "' does not exist");
  }

  public HttpStatus status() {
    return status;
  }

  public String title() {
    return title;
  }

  public Map<String, Object> properties() {
    return properties;
  }
}
