package dev.isolato.security;

import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;

/**
 * Decides a call: static callers by {@link StaticPolicy}, cluster identities by
 * SubjectAccessReview.
 */
final class ApiAccess {
  private static final Logger log = LoggerFactory.getLogger(ApiAccess.class);
  private final AccessReviews reviews;

  ApiAccess(AccessReviews reviews) {
    this.reviews = reviews;
  }

  /** For a route of {@link ApiRoutes}. */
  AuthorizationManager<RequestAuthorizationContext> requiring(
      Function<RequestAuthorizationContext, Permission> permission) {
    return new AuthorizationManager<>() {
      @Override
      @SuppressWarnings(
          "deprecation") // check() is what AuthorizationManager still requires in Spring Security 6
      public AuthorizationDecision check(
          Supplier<Authentication> authentication, RequestAuthorizationContext ctx) {
        return decide(authentication.get(), permission.apply(ctx));
      }
    };
  }

  /** For paths no permission is defined for: provider-admin tokens only. */
  AuthorizationManager<RequestAuthorizationContext> adminOnly() {
    return requiring(ctx -> null);
  }

  AuthorizationDecision decide(Authentication authentication, Permission p) {
    if (!(authentication instanceof CallerAuthentication auth)) {
      return new AuthorizationDecision(false); // anonymous: the entry point answers 401
    }
    Caller caller = auth.caller();
    AccessDecision d;
    if (p == null) {
      d =
          caller instanceof Caller.Admin
              ? AccessDecision.granted(null)
              : AccessDecision.denied(
                  null,
                  "no permission is defined for this path; only provider-admin tokens may call it");
    } else if (caller instanceof Caller.ClusterUser user) {
      d = reviews.check(user, p);
    } else {
      d =
          StaticPolicy.denial(caller, p)
              .map(reason -> AccessDecision.denied(p, reason))
              .orElseGet(() -> AccessDecision.granted(p));
    }
    if (!d.isGranted()) {
      log.info(
          "denied {}: {} ({})",
          caller.name(),
          p == null ? "unmapped path" : p.describe(),
          d.reason());
    }
    return d;
  }
}
