package dev.isolato.slo;

import java.util.List;

/**
 * Everything a planner needs about one SLO class, free of Kubernetes types.
 *
 * @param sloClass class name, for explanations
 * @param percentile latency percentile of the target (e.g. 95)
 * @param targetLatencyMs latency target at that percentile
 * @param minReplicas lower replica bound of the class
 * @param maxReplicas upper replica bound of the class
 * @param perPodCutoffRps measured (or declared) cut-off point of one pod of the class
 * @param tenants the class's tenants and their committed rates
 * @param fit the class's fitted latency model (e.g. from SloClass status), or null when none;
 *     {@link UslCapacityPlanner} uses it when trusted, {@link LinearCapacityPlanner} ignores it
 */
public record PlanRequest(
    String sloClass,
    double percentile,
    double targetLatencyMs,
    int minReplicas,
    int maxReplicas,
    double perPodCutoffRps,
    List<TenantDemand> tenants,
    ModelFit fit) {

  public PlanRequest {
    tenants = List.copyOf(tenants);
  }

  /** A request without a fitted model (the original seam). */
  public PlanRequest(
      String sloClass,
      double percentile,
      double targetLatencyMs,
      int minReplicas,
      int maxReplicas,
      double perPodCutoffRps,
      List<TenantDemand> tenants) {
    this(sloClass, percentile, targetLatencyMs, minReplicas, maxReplicas, perPodCutoffRps, tenants, null);
  }

  /** This request with {@code fit} attached (null removes it). */
  public PlanRequest withModel(ModelFit fit) {
    return new PlanRequest(sloClass, percentile, targetLatencyMs, minReplicas, maxReplicas, perPodCutoffRps, tenants, fit);
  }

  /** This request for another tenant set (what-if simulations). */
  public PlanRequest withTenants(List<TenantDemand> tenants) {
    return new PlanRequest(sloClass, percentile, targetLatencyMs, minReplicas, maxReplicas, perPodCutoffRps, tenants, fit);
  }

  public double totalCommittedRps() {
    return tenants.stream().mapToDouble(TenantDemand::committedRps).sum();
  }
}
