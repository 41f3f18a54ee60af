package dev.isolato.security;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;

/** Bearer token → caller: static tokens first (no API call), then the cluster's TokenReview. */
final class BearerTokenProvider implements AuthenticationProvider {
  private final StaticTokens staticTokens;
  private final ClusterTokens clusterTokens;

  BearerTokenProvider(StaticTokens staticTokens, ClusterTokens clusterTokens) {
    this.staticTokens = staticTokens;
    this.clusterTokens = clusterTokens;
  }

  @Override
  public Authentication authenticate(Authentication authentication) {
    String token = ((BearerTokenAuthenticationToken) authentication).getToken();
    Caller caller =
        staticTokens
            .find(token)
            .or(() -> clusterTokens.authenticate(token).map(Caller.class::cast))
            .orElseThrow(() -> new InvalidBearerTokenException("the bearer token is not valid"));
    CallerAuthentication result = new CallerAuthentication(caller);
    result.setDetails(authentication.getDetails());
    return result;
  }

  @Override
  public boolean supports(Class<?> authentication) {
    return BearerTokenAuthenticationToken.class.isAssignableFrom(authentication);
  }
}
