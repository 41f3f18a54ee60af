package dev.isolato.api;

import dev.isolato.slo.CapacityPlan;
import dev.isolato.slo.PlanRequest;
import dev.isolato.slo.SimulationResult;
import dev.isolato.tenancy.CalibrationStatusMapper;
import dev.isolato.tenancy.SloClass;

/**
 * A plan with its inputs, as the plan and simulate endpoints answer.
 *
 * @param pool namespace of the planned pool; null for a simulation
 * @param perPodCutoffSource {@code measured} (calibration), {@code declared} (spec), {@code live}
 *     (lowered by live evidence, docs/calibration.md) or {@code override}
 * @param fitStatus {@code trusted}, {@code refused} or {@code none}: whether a stored fit exists
 *     and passed its quality checks (the plan may still fall back, e.g. beyond the measured range)
 * @param plan the engine's plan: method {@code usl-model}, or {@code linear-fallback} with the
 *     reason first
 * @param linearBaseline the linear baseline ⌈Σ committed / per-pod cut-off⌉ for comparison
 * @param predictedLatencyMs the model's latency at the committed rate with the plan's replicas;
 *     null without a usable model
 * @param linearPredictedLatencyMs the model's latency with the linear baseline's replicas (above
 *     the target: linear under-sizes)
 */
public record PlanView(
    String sloClass,
    String pool,
    double percentile,
    double targetMs,
    int minReplicas,
    int maxReplicas,
    double perPodCutoffRps,
    String perPodCutoffSource,
    String fitStatus,
    double totalCommittedRps,
    CapacityPlan plan,
    CapacityPlan linearBaseline,
    Double predictedLatencyMs,
    Double linearPredictedLatencyMs) {

  static PlanView of(PlanRequest request, String pool, String perPodSource, SimulationResult sim) {
    return new PlanView(
        request.sloClass(),
        pool,
        request.percentile(),
        request.targetLatencyMs(),
        request.minReplicas(),
        request.maxReplicas(),
        request.perPodCutoffRps(),
        perPodSource,
        request.fit() == null ? "none" : request.fit().status(),
        sim.totalCommittedRps(),
        sim.plan(),
        sim.linearBaseline(),
        sim.predictedLatencyMs(),
        sim.linearPredictedLatencyMs());
  }

  static String source(SloClass c) {
    if (CalibrationStatusMapper.liveLimit(c).isPresent()) {
      return "live";
    }
    return CalibrationStatusMapper.perPodCutoffMeasured(c) ? "measured" : "declared";
  }
}
