package dev.isolato.security;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** An authenticated request: the caller, never the token. */
public final class CallerAuthentication extends AbstractAuthenticationToken {
  private final Caller caller;

  CallerAuthentication(Caller caller) {
    super(List.of(new SimpleGrantedAuthority(role(caller))));
    this.caller = caller;
    setAuthenticated(true);
  }

  private static String role(Caller c) {
    return c instanceof Caller.Admin
        ? "ROLE_ADMIN"
        : c instanceof Caller.TenantUser ? "ROLE_TENANT" : "ROLE_CLUSTER_USER";
  }

  public Caller caller() {
    return caller;
  }

  @Override
  public Object getPrincipal() {
    return caller;
  }

  @Override
  public Object getCredentials() {
    return null;
  }

  @Override
  public String getName() {
    return caller.name();
  }
}
