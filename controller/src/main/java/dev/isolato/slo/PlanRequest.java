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
 */
public record PlanRequest(
    String sloClass,
    double percentile,
    double targetLatencyMs,
    int minReplicas,
    int maxReplicas,
    double perPodCutoffRps,
    List<TenantDemand> tenants) {

  public PlanRequest {
    tenants = List.copyOf(tenants);
  }

  public double totalCommittedRps() {
    return tenants.stream().mapToDouble(TenantDemand::committedRps).sum();
  }
}
