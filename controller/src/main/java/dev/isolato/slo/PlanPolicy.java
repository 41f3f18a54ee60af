package dev.isolato.slo;

/**
 * How conservatively the model-based planner sizes a class.
 *
 * @param headroom spare rate fraction: the class is sized so that the predicted latency at
 *     total committed rate × (1 + headroom) meets the target (e.g. 0.1 = 10% spare)
 * @param maxExtrapolation the model is not trusted for a per-replica cut-off beyond this
 *     multiple of the highest per-replica load measured (e.g. 1.5)
 */
public record PlanPolicy(double headroom, double maxExtrapolation) {

  public static PlanPolicy defaults() {
    return new PlanPolicy(0.10, 1.5);
  }

  public PlanPolicy {
    if (!(headroom >= 0 && headroom <= 10)) {
      throw new IllegalArgumentException("headroom must be in [0, 10], was " + headroom);
    }
    if (!(maxExtrapolation >= 1)) {
      throw new IllegalArgumentException("maxExtrapolation must be >= 1, was " + maxExtrapolation);
    }
  }
}
