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
 *     {@link ModelCapacityPlanner} uses it when trusted, {@link LinearCapacityPlanner} ignores it
 * @param sizing the class's candidate pod sizes with their measured cut-offs, or null when the
 *     class declares one size; {@link PodSizingPlanner} chooses among them
 */
public record PlanRequest(
    String sloClass,
    double percentile,
    double targetLatencyMs,
    int minReplicas,
    int maxReplicas,
    double perPodCutoffRps,
    List<TenantDemand> tenants,
    ModelFit fit,
    PodSizing sizing) {

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
    this(
        sloClass,
        percentile,
        targetLatencyMs,
        minReplicas,
        maxReplicas,
        perPodCutoffRps,
        tenants,
        null,
        null);
  }

  /** A request for the class's one declared pod size (no size choice). */
  public PlanRequest(
      String sloClass,
      double percentile,
      double targetLatencyMs,
      int minReplicas,
      int maxReplicas,
      double perPodCutoffRps,
      List<TenantDemand> tenants,
      ModelFit fit) {
    this(
        sloClass,
        percentile,
        targetLatencyMs,
        minReplicas,
        maxReplicas,
        perPodCutoffRps,
        tenants,
        fit,
        null);
  }

  /** This request with {@code fit} attached (null removes it). */
  public PlanRequest withModel(ModelFit fit) {
    return new PlanRequest(
        sloClass,
        percentile,
        targetLatencyMs,
        minReplicas,
        maxReplicas,
        perPodCutoffRps,
        tenants,
        fit,
        sizing);
  }

  /** This request with candidate pod sizes (null: the declared size only). */
  public PlanRequest withSizing(PodSizing sizing) {
    return new PlanRequest(
        sloClass,
        percentile,
        targetLatencyMs,
        minReplicas,
        maxReplicas,
        perPodCutoffRps,
        tenants,
        fit,
        sizing);
  }

  /** This request planned at one pod size: its per-pod cut-off, and no size choice left. */
  public PlanRequest atSize(double perPodCutoffRps, ModelFit fit) {
    return new PlanRequest(
        sloClass,
        percentile,
        targetLatencyMs,
        minReplicas,
        maxReplicas,
        perPodCutoffRps,
        tenants,
        fit,
        null);
  }

  /** This request for another tenant set (what-if simulations). */
  public PlanRequest withTenants(List<TenantDemand> tenants) {
    return new PlanRequest(
        sloClass,
        percentile,
        targetLatencyMs,
        minReplicas,
        maxReplicas,
        perPodCutoffRps,
        tenants,
        fit,
        sizing);
  }

  public double totalCommittedRps() {
    return tenants.stream().mapToDouble(TenantDemand::committedRps).sum();
  }

  /**
   * The rate the class is sized for: commitments, passive tenants counted at their measured rate.
   */
  public double totalSizedRps() {
    return tenants.stream().mapToDouble(TenantDemand::sizedRps).sum();
  }

  /** Tenants counted below their commitment. */
  public long tenantsCountedBelowCommitment() {
    return tenants.stream().filter(TenantDemand::countedBelowCommitment).count();
  }
}
