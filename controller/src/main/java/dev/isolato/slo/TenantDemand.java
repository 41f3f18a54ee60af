package dev.isolato.slo;

/**
 * A tenant's committed maximum request rate, and the rate the class is sized for it.
 *
 * @param sizedRps what the planner counts for this tenant: its commitment, or — a passive tenant of
 *     a class that opted in ({@link TenantProfiler}) — its measured rate. Admission still follows
 *     the commitment (the class is overbooked while the tenant stays passive).
 */
public record TenantDemand(String tenantId, double committedRps, double sizedRps) {

  /** A tenant counted at its commitment. */
  public TenantDemand(String tenantId, double committedRps) {
    this(tenantId, committedRps, committedRps);
  }

  /** Whether the planner counts this tenant below its commitment. */
  public boolean countedBelowCommitment() {
    return sizedRps < committedRps;
  }
}
