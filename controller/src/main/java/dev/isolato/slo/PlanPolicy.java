package dev.isolato.slo;

/**
 * How conservatively the model-based planner sizes a class.
 *
 * @param headroom spare rate fraction: the class is sized so that the predicted latency at total
 *     committed rate × (1 + headroom) meets the target (e.g. 0.1 = 10% spare)
 * @param maxExtrapolation the model is not trusted for a per-replica cut-off beyond this multiple
 *     of the highest per-replica load measured (e.g. 1.5)
 * @param maxUtilisation a replica is never planned beyond this fraction of the model's saturation
 *     rate (a knee-shaped model's μ): next to the knee the percentile is decided by which requests
 *     wait for the next CPU-quota period, so the measured cut-off moves from run to run by more
 *     than any headroom on the rate covers (e.g. 0.8)
 */
public record PlanPolicy(double headroom, double maxExtrapolation, double maxUtilisation) {

  public static PlanPolicy defaults() {
    return new PlanPolicy(0.10, 1.5, 0.8);
  }

  /** A policy without a utilisation cap. */
  public PlanPolicy(double headroom, double maxExtrapolation) {
    this(headroom, maxExtrapolation, 1.0);
  }

  public PlanPolicy {
    if (!(maxUtilisation > 0 && maxUtilisation <= 1)) {
      throw new IllegalArgumentException("maxUtilisation must be in (0, 1], was " + maxUtilisation);
    }
    if (!(headroom >= 0 && headroom <= 10)) {
      throw new IllegalArgumentException("headroom must be in [0, 10], was " + headroom);
    }
    if (!(maxExtrapolation >= 1)) {
      throw new IllegalArgumentException("maxExtrapolation must be >= 1, was " + maxExtrapolation);
    }
  }
}
