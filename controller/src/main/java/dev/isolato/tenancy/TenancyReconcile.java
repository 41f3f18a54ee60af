package dev.isolato.tenancy;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** Small pure helpers of the class reconcile. */
final class TenancyReconcile {
  private TenancyReconcile() {}

  static String phaseOf(Tenant t) {
    if (t.getMetadata().getDeletionTimestamp() != null) {
      return "Terminating";
    }
    return t.getStatus() == null || t.getStatus().phase == null ? TenantStatuses.PENDING : t.getStatus().phase;
  }

  static Optional<Instant> acceptedAt(Tenant t) {
    String v = t.getMetadata().getAnnotations() == null ? null : t.getMetadata().getAnnotations().get(Tenant.ACCEPTED_AT);
    try {
      return v == null ? Optional.empty() : Optional.of(Instant.ofEpochMilli(Long.parseLong(v)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** A measured single-pod cut-off (status, from calibration) wins over the declared one. */
  static double perPodCutoff(SloClass c) {
    if (c.getStatus() != null && c.getStatus().cutoffs != null) {
      for (SloClassStatus.CutoffPoint p : c.getStatus().cutoffs) {
        if (p.pods == 1 && p.rps > 0) {
          return p.rps;
        }
      }
    }
    return c.getSpec().perPodCutoffRps;
  }

  static boolean sameClassStatus(SloClassStatus a, SloClassStatus b) {
    return Objects.equals(a.observedGeneration, b.observedGeneration) && a.tenants == b.tenants
        && samePlan(a.plan, b.plan) && Objects.equals(a.conditions, b.conditions);
  }

  private static boolean samePlan(SloClassStatus.Plan a, SloClassStatus.Plan b) {
    if (a == null || b == null) {
      return a == b;
    }
    return a.replicas == b.replicas && a.capacityRps == b.capacityRps && a.committedRps == b.committedRps
        && Objects.equals(a.method, b.method) && Objects.equals(a.explanation, b.explanation);
  }
}
