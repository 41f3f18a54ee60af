package dev.isolato.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/** Every /api/ call needs a valid bearer token; otherwise 401 problem+json. */
@Component
public class BearerAuthFilter extends OncePerRequestFilter {
  private final TokenAuthenticator authenticator;
  private final ObjectMapper json;

  public BearerAuthFilter(TokenAuthenticator authenticator, ObjectMapper json) {
    this.authenticator = authenticator;
    this.json = json;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !request.getRequestURI().startsWith("/api/");
  }

  @Override
  protected void doFilterInternal(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
      throws ServletException, IOException {
    String header = req.getHeader(HttpHeaders.AUTHORIZATION);
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7) || header.substring(7).isBlank()) {
      deny(res, "no bearer token: send 'Authorization: Bearer <token>'");
      return;
    }
    Optional<String> user = authenticator.authenticate(header.substring(7).trim());
    if (user.isEmpty()) {
      deny(res, "the bearer token is not valid");
      return;
    }
    req.setAttribute("isolato.user", user.get());
    chain.doFilter(req, res);
  }

  private void deny(HttpServletResponse res, String detail) throws IOException {
    ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.UNAUTHORIZED, detail);
    p.setTitle("Unauthorized");
    res.setStatus(HttpStatus.UNAUTHORIZED.value());
    res.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"isolato\"");
    res.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    json.writeValue(res.getOutputStream(), p);
  }
}
