package dev.isolato.slo;

/**
 * A what-if plan for a tenant set, with the linear baseline beside it.
 *
 * @param plan the engine's plan (model-based, or the flagged linear fallback)
 * @param linearBaseline the linear baseline's plan; null when the request has no per-pod cut-off
 * @param predictedLatencyMs the model's latency at the committed rate with {@code plan}'s replicas;
 *     null without a trusted model
 * @param linearPredictedLatencyMs the model's latency at the committed rate with the linear
 *     baseline's replicas: above the target means the linear baseline under-sizes; null when either
 *     is missing
 */
public record SimulationResult(
    double totalCommittedRps,
    CapacityPlan plan,
    CapacityPlan linearBaseline,
    Double predictedLatencyMs,
    Double linearPredictedLatencyMs) {}
