package dev.isolato.security;

import java.util.Optional;

/** What static tokens may do: an admin everything, a tenant only read its own tenant. */
final class StaticPolicy {
  private StaticPolicy() {}

  /** Empty when allowed, else why not. */
  static Optional<String> denial(Caller caller, Permission p) {
    if (caller instanceof Caller.Admin) {
      return Optional.empty();
    }
    if (caller instanceof Caller.TenantUser t) {
      boolean ownTenant =
          "get".equals(p.verb())
              && "tenants".equals(p.resource())
              && p.subresource() == null
              && t.tenantId().equals(p.name());
      return ownTenant
          ? Optional.empty()
          : Optional.of("a tenant token may only read its own tenant ('" + t.tenantId() + "')");
    }
    throw new IllegalArgumentException("not a static caller: " + caller.name());
  }
}
