package dev.isolato.security;

import org.springframework.security.authorization.AuthorizationDecision;

/** A verdict on one call that remembers the permission it was about, for the 403 problem. */
public final class AccessDecision extends AuthorizationDecision {
  private final Permission permission;
  private final String reason;

  private AccessDecision(boolean granted, Permission permission, String reason) {
    super(granted);
    this.permission = permission;
    this.reason = reason;
  }

  static AccessDecision granted(Permission p) {
    return new AccessDecision(true, p, null);
  }

  static AccessDecision denied(Permission p, String reason) {
    return new AccessDecision(false, p, reason);
  }

  /** The permission the call needs; null for a path no permission is defined for. */
  public Permission permission() {
    return permission;
  }

  public String reason() {
    return reason;
  }
}
