package dev.isolato.tenancy;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** Small pure helpers of the class reconcile. */
final class TenancyReconcile {
  private TenancyReconcile() {}

  static Optional<Instant> acceptedAt(Tenant t) {
    String v =
        t.getMetadata().getAnnotations() == null
            ? null
            : t.getMetadata().getAnnotations().get(Tenant.ACCEPTED_AT);
    try {
      return v == null ? Optional.empty() : Optional.of(Instant.ofEpochMilli(Long.parseLong(v)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  static boolean sameClassStatus(SloClassStatus a, SloClassStatus b) {
    return Objects.equals(a.observedGeneration, b.observedGeneration)
        && Objects.equals(a.tenants, b.tenants)
        && samePlan(a.plan, b.plan)
        && Objects.equals(a.conditions, b.conditions);
  }

  private static boolean samePlan(SloClassStatus.Plan a, SloClassStatus.Plan b) {
    if (a == null || b == null) {
      return a == b;
    }
    return a.replicas == b.replicas
        && a.perPodCutoffRps == b.perPodCutoffRps
        && a.capacityRps == b.capacityRps
        && a.committedRps == b.committedRps
        && Objects.equals(a.method, b.method)
        && Objects.equals(a.explanation, b.explanation);
  }
}
