package dev.isolato.tenancy;

import dev.isolato.slo.CapacityPlan;
import dev.isolato.slo.PlanRequest;
import dev.isolato.slo.PodSizing;
import dev.isolato.slo.TenantDemand;
import dev.isolato.slo.TenantProfiler;
import java.util.List;

/** Pure: the planner's input for a class's tenants, and the plan as shown in the class status. */
public final class ClassPlans {
  private ClassPlans() {}

  /**
   * The class's target, replica bounds and per-pod cut-off (live limit, else measured, else
   * declared) with the stored fit and the candidate pod sizes attached, for {@code tenants}.
   */
  public static PlanRequest request(SloClass cls, List<TenantDemand> tenants) {
    SloClassSpec s = cls.getSpec();
    return new PlanRequest(
            cls.getMetadata().getName(),
            s.latency.percentile,
            s.latency.targetMs,
            s.minReplicas,
            s.maxReplicas,
            CalibrationStatusMapper.perPodCutoff(cls),
            tenants)
        // a model fitted where the pods delivered more is no guide while live evidence says less,
        // nor one fitted in another context than the pool's
        .withModel(
            CalibrationStatusMapper.liveLimit(cls).isPresent()
                    || !CalibrationStatusMapper.fitHoldsHere(cls)
                ? null
                : CalibrationStatusMapper.modelFit(cls.getStatus()))
        .withSizing(liveSizing(cls));
  }

  /**
   * The class's candidate sizes; while live evidence holds the cut-off below the calibrated one,
   * each size's cut-off scaled by the same share (the context that slows one size slows the others:
   * the live limit is not to be sidestepped by choosing another size).
   */
  static PodSizing liveSizing(SloClass cls) {
    PodSizing sizing = CalibrationStatusMapper.sizing(cls);
    java.util.OptionalDouble live = CalibrationStatusMapper.liveLimit(cls);
    if (sizing == null || live.isEmpty()) {
      return sizing;
    }
    double share = live.getAsDouble() / CalibrationStatusMapper.calibratedPerPodCutoff(cls);
    return new PodSizing(
        sizing.declaredCpuMillis(),
        sizing.candidates().stream()
            .map(
                c ->
                    new PodSizing.SizeCutoff(
                        c.cpuMillis(),
                        c.perPodCutoffRps() == null ? null : c.perPodCutoffRps() * share))
            .toList(),
        sizing.fitCpuMillis());
  }

  /**
   * Live tenants as the class plans them: at their commitments, or — when the class counts passive
   * tenants at their measured rate — a passive tenant at the rate in its profile.
   */
  public static List<TenantDemand> demands(SloClass cls, List<Tenant> tenants) {
    boolean measured = cls.getSpec().passiveTenants == SloClassSpec.PassiveTenants.measured;
    return tenants.stream()
        .map(
            t ->
                TenantProfiler.demand(
                    t.getMetadata().getName(),
                    t.getSpec().committedRps,
                    TenantProfiles.profile(t),
                    measured))
        .toList();
  }

  static SloClassStatus.Plan toStatus(CapacityPlan plan, PlanRequest request) {
    SloClassStatus.Plan p = new SloClassStatus.Plan();
    p.replicas = plan.replicas();
    p.perPodCutoffRps = request.perPodCutoffRps();
    p.capacityRps = plan.capacityRps();
    p.committedRps = request.totalCommittedRps();
    p.method = plan.method();
    p.explanation = plan.explanation();
    p.podCpu = plan.podCpuMillis() == null ? null : plan.podCpuMillis() + "m";
    return p;
  }
}
