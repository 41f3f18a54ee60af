package dev.isolato.api;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import dev.isolato.calibration.FieldError;
import dev.isolato.slo.InvalidInputException;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** Turns every error into RFC 9457 problem+json; 400s list the offending fields. */
@RestControllerAdvice
public class ProblemAdvice extends ResponseEntityExceptionHandler {
  private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

  @ExceptionHandler(ApiException.class)
  ResponseEntity<ProblemDetail> api(ApiException e) {
    ProblemDetail p = ProblemDetail.forStatusAndDetail(e.status(), e.getMessage());
    p.setTitle(e.title());
    e.properties().forEach(p::setProperty);
    return ResponseEntity.status(e.status()).body(p);
  }

  /**
   * Input the SLO engine refused (the controllers check first; this keeps a miss a 400, not a 500).
   */
  @ExceptionHandler(InvalidInputException.class)
  ResponseEntity<ProblemDetail> engine(InvalidInputException e) {
    return api(ApiException.invalid(e.errors()));
  }

  /** The API server refused: pass its verdict on with a matching status. */
  @ExceptionHandler(KubernetesClientException.class)
  ResponseEntity<ProblemDetail> kubernetes(KubernetesClientException e) {
    HttpStatus status =
        switch (e.getCode()) {
          case 404 -> HttpStatus.NOT_FOUND;
          case 409 -> HttpStatus.CONFLICT;
          case 422, 400 -> HttpStatus.UNPROCESSABLE_ENTITY;
          case 403, 401 -> HttpStatus.BAD_GATEWAY;
          default -> HttpStatus.SERVICE_UNAVAILABLE;
        };
    if (status.is5xxServerError()) {
      log.warn("Kubernetes API call failed", e);
    }
    boolean unreachable = e.getCode() <= 0;
    String detail =
        unreachable
            ? "the Kubernetes API server did not answer ("
                + rootCause(e)
                + "); nothing was changed by this call, retry later"
            : e.getStatus() != null && e.getStatus().getMessage() != null
                ? e.getStatus().getMessage()
                : e.getMessage();
    ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
    p.setTitle("Kubernetes API server: " + (unreachable ? "unreachable" : "HTTP " + e.getCode()));
    if (unreachable || e.getCode() == 429) {
      return ResponseEntity.status(status)
          .header(HttpHeaders.RETRY_AFTER, Integer.toString(retryAfterSeconds(e)))
          .body(p);
    }
    return ResponseEntity.status(status).body(p);
  }

  /**
   * When to retry: what the API server asked for with its 429 (its flow control's
   * retryAfterSeconds, at most 10 s), else 1 s.
   */
  static int retryAfterSeconds(KubernetesClientException e) {
    Integer asked =
        e.getStatus() != null && e.getStatus().getDetails() != null
            ? e.getStatus().getDetails().getRetryAfterSeconds()
            : null;
    return asked == null ? 1 : Math.max(1, Math.min(10, asked));
  }

  /** Unreadable JSON or a value of the wrong type: name the field Jackson stopped at. */
  @Override
  protected ResponseEntity<Object> handleHttpMessageNotReadable(
      HttpMessageNotReadableException e,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    String field =
        e.getCause() instanceof JsonMappingException m
            ? m.getPath().stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining("."))
                .replace(".[", "[")
            : "";
    String message =
        field.isEmpty()
            ? "body is not valid JSON"
            : e.getCause() instanceof InvalidFormatException f
                    && f.getTargetType() != null
                    && f.getTargetType().isEnum()
                ? "must be one of "
                    + Arrays.stream(f.getTargetType().getEnumConstants())
                        .map(String::valueOf)
                        .collect(Collectors.joining(", "))
                    + ", not '"
                    + f.getValue()
                    + "'"
                : "has a value of the wrong type";
    List<FieldError> errors = List.of(new FieldError(field.isEmpty() ? "body" : field, message));
    ProblemDetail p =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.BAD_REQUEST, errors.get(0).field() + " " + message);
    p.setTitle("Invalid request");
    p.setProperty("errors", errors);
    return ResponseEntity.badRequest().body(p);
  }

  private static String rootCause(Throwable e) {
    Throwable c = e;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c.getMessage() == null
        ? c.getClass().getSimpleName()
        : c.getClass().getSimpleName() + ": " + c.getMessage();
  }

  static Map<String, Object> remaining(double remainingRps, double capacityRps) {
    return Map.of("remainingRps", remainingRps, "capacityRps", capacityRps);
  }
}
