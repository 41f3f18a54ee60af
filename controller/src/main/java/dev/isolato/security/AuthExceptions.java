package dev.isolato.security;

import org.springframework.http.HttpStatus;
import org.springframework.security.core.AuthenticationException;

/**
 * Checks that could not be made: 429 when a limit kept the API server from being asked, 503 when it
 * could not be asked. An AuthenticationException also when authorization throws it: Spring
 * Security's ExceptionTranslationFilter hands those to the entry point too.
 */
final class AuthExceptions {
  private AuthExceptions() {}

  static final class Unchecked extends AuthenticationException {
    private final HttpStatus status;
    private final String title;

    private Unchecked(HttpStatus status, String title, String msg, Throwable cause) {
      super(msg, cause);
      this.status = status;
      this.title = title;
    }

    HttpStatus status() {
      return status;
    }

    String title() {
      return title;
    }
  }

  /** Too many unknown tokens to review right now. */
  static Unchecked reviewsThrottled(String msg) {
    return new Unchecked(HttpStatus.TOO_MANY_REQUESTS, "Too many unknown tokens", msg, null);
  }

  /** The cluster could not be asked who the token belongs to. */
  static Unchecked identityUnavailable(String msg, Throwable cause) {
    return new Unchecked(
        HttpStatus.SERVICE_UNAVAILABLE, "Cannot check the bearer token", msg, cause);
  }

  /** Too many permission checks for one user right now. */
  static Unchecked accessReviewsThrottled(String msg) {
    return new Unchecked(HttpStatus.TOO_MANY_REQUESTS, "Too many permission checks", msg, null);
  }

  /** The cluster could not be asked whether the call is allowed. */
  static Unchecked accessReviewUnavailable(String msg, Throwable cause) {
    return new Unchecked(HttpStatus.SERVICE_UNAVAILABLE, "Cannot check the permission", msg, cause);
  }
}
