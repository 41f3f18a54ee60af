package dev.isolato.tenancy;

/**
 * The phase a tenant's status reports (the constants are the values written to {@code
 * status.phase}). Terminating is never written: it is what a tenant being deleted counts as in the
 * {@code isolato_tenants} gauge.
 */
public enum TenantPhase {
  /** Nothing can be provisioned for it yet (no class, a refused name, a conflicting namespace). */
  Pending,
  /** Its pool is applied; pods or the table push are not there yet. */
  Provisioning,
  /** Every ready pod of its pool holds a table listing it. */
  Serving,
  /** Deleted; waits for its release. */
  Terminating;

  /**
   * The tenant's phase as last written (Pending when none or unknown), Terminating once deleted.
   */
  public static TenantPhase of(Tenant t) {
    if (t.getMetadata().getDeletionTimestamp() != null) {
      return Terminating;
    }
    return parse(t.getStatus() == null ? null : t.getStatus().phase);
  }

  /** A written phase; anything unknown (a status written by hand) reads as Pending. */
  public static TenantPhase parse(String phase) {
    for (TenantPhase p : values()) {
      if (p.name().equals(phase)) {
        return p;
      }
    }
    return Pending;
  }
}
