package dev.isolato.tenancy;

import dev.isolato.slo.CapacityPlan;
import dev.isolato.slo.PlanRequest;
import dev.isolato.slo.TenantDemand;
import java.util.List;

/** Pure: the planner's input for a class's tenants, and the plan as shown in the class status. */
public final class ClassPlans {
  private ClassPlans() {}

  /**
   * The class's target, replica bounds and per-pod cut-off (measured, else declared) with the
   * stored fit attached, for {@code tenants}.
   */
  public static PlanRequest request(SloClass cls, List<TenantDemand> tenants) {
    SloClassSpec s = cls.getSpec();
    return new PlanRequest(cls.getMetadata().getName(), s.latency.percentile, s.latency.targetMs,
        s.minReplicas, s.maxReplicas, CalibrationStatusMapper.perPodCutoff(cls), tenants)
        .withModel(CalibrationStatusMapper.modelFit(cls.getStatus()));
  }

  /** Live tenants as demands, in the given order. */
  public static List<TenantDemand> demands(List<Tenant> tenants) {
    return tenants.stream().map(t -> new TenantDemand(t.getMetadata().getName(), t.getSpec().committedRps)).toList();
  }

  static SloClassStatus.Plan toStatus(CapacityPlan plan, PlanRequest request) {
    SloClassStatus.Plan p = new SloClassStatus.Plan();
    p.replicas = plan.replicas();
    p.capacityRps = plan.capacityRps();
    p.committedRps = request.totalCommittedRps();
    p.method = plan.method();
    p.explanation = plan.explanation();
    return p;
  }
}
