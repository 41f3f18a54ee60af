package dev.isolato.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authorization.AuthorizationDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;

/**
 * RFC 9457 problem+json for what the security filters refuse, in the style of {@code
 * api.ProblemAdvice}: 401 (with {@code WWW-Authenticate: Bearer}), 403 naming the missing
 * permission, 429 when unknown tokens arrive faster than they may be reviewed, 503 when the cluster
 * cannot be asked, 400 for request paths the firewall rejects.
 */
final class SecurityProblems
    implements AuthenticationEntryPoint, AccessDeniedHandler, RequestRejectedHandler {
  private static final Logger log = LoggerFactory.getLogger(SecurityProblems.class);
  static final String REALM = "Bearer realm=\"isolato\"";
  private final ObjectMapper json;

  SecurityProblems(ObjectMapper json) {
    this.json = json;
  }

  @Override
  public void commence(HttpServletRequest req, HttpServletResponse res, AuthenticationException e)
      throws IOException {
    if (unchecked(res, e)) {
      return;
    }
    boolean tokenSent = e instanceof OAuth2AuthenticationException;
    res.setHeader(
        HttpHeaders.WWW_AUTHENTICATE, tokenSent ? REALM + ", error=\"invalid_token\"" : REALM);
    String detail =
        !tokenSent
            ? "no bearer token: send 'Authorization: Bearer <token>'"
            : e.getMessage() != null
                    && e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("malformed")
                ? "the bearer token is malformed: send 'Authorization: Bearer <token>' with one token of RFC 6750 characters"
                : "the bearer token is not valid";
    write(res, HttpStatus.UNAUTHORIZED, "Unauthorized", detail);
  }

  @Override
  public void handle(HttpServletRequest req, HttpServletResponse res, AccessDeniedException e)
      throws IOException {
    ProblemDetail p = ProblemDetail.forStatus(HttpStatus.FORBIDDEN);
    p.setTitle("Forbidden");
    if (e instanceof AuthorizationDeniedException d
        && d.getAuthorizationResult() instanceof AccessDecision a) {
      Caller caller =
          SecurityContextHolder.getContext().getAuthentication() instanceof CallerAuthentication c
              ? c.caller()
              : null;
      String who = caller == null ? "the caller" : caller.name();
      if (a.permission() == null) {
        p.setDetail(who + ": " + a.reason());
      } else {
        p.setDetail(
            who
                + " may not "
                + a.permission().describe()
                + ": "
                + a.reason()
                + ". See docs/security.md"
                + (caller instanceof Caller.ClusterUser
                    ? "; check with: " + a.permission().canICommand(who)
                    : ""));
        p.setProperty("permission", a.permission().asMap());
      }
    } else {
      p.setDetail("access denied");
    }
    write(res, p);
  }

  @Override
  public void handle(HttpServletRequest req, HttpServletResponse res, RequestRejectedException e)
      throws IOException {
    log.debug("rejected request path: {}", e.getMessage());
    write(
        res,
        HttpStatus.BAD_REQUEST,
        "Invalid request path",
        e.getMessage()
            + ". Send a normalized path: no ';', '//', '.' or '..' segments, no encoded '/', '%', '.' or '\\\\'");
  }

  /** 429 with Retry-After, or 503: the check could not be made. */
  private boolean unchecked(HttpServletResponse res, AuthenticationException e) throws IOException {
    if (!(e instanceof AuthExceptions.Unchecked u)) {
      return false;
    }
    if (u.status() == HttpStatus.TOO_MANY_REQUESTS) {
      res.setHeader(HttpHeaders.RETRY_AFTER, "1");
    } else {
      log.warn("{}: {}", u.title(), e.getMessage());
    }
    write(res, u.status(), u.title(), e.getMessage());
    return true;
  }

  private void write(HttpServletResponse res, HttpStatus status, String title, String detail)
      throws IOException {
    ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
    p.setTitle(title);
    write(res, p);
  }

  private void write(HttpServletResponse res, ProblemDetail p) throws IOException {
    res.setStatus(p.getStatus());
    res.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    json.writeValue(res.getOutputStream(), p);
  }
}
