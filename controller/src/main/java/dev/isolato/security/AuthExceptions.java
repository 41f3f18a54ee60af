package dev.isolato.security;

import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;

/** Outcomes of authentication and authorization that are not a plain 401 / 403. */
final class AuthExceptions {
  private AuthExceptions() {}

  /** Too many unknown tokens to review right now: 429, the API server was not asked. */
  static final class ReviewsThrottled extends AuthenticationException {
    ReviewsThrottled(String msg) {
      super(msg);
    }
  }

  /** The cluster could not be asked who the token belongs to: 503. */
  static final class IdentityUnavailable extends AuthenticationException {
    IdentityUnavailable(String msg, Throwable cause) {
      super(msg, cause);
    }
  }

  /** Too many permission checks for one user right now: 429, the API server was not asked. */
  static final class AccessReviewsThrottled extends AccessDeniedException {
    AccessReviewsThrottled(String msg) {
      super(msg);
    }
  }

  /** The cluster could not be asked whether the call is allowed: 503. */
  static final class AccessReviewUnavailable extends AccessDeniedException {
    AccessReviewUnavailable(String msg, Throwable cause) {
      super(msg, cause);
    }
  }
}
