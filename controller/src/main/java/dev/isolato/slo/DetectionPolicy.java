package dev.isolato.slo;

/**
 * When a step counts as meeting the SLO besides its latency.
 *
 * @param maxErrorRate highest tolerated errors / requests (e.g. 0.01)
 * @param minAchievedRatio lowest tolerated achieved / offered rate (e.g. 0.95): below it the
 *     workload is saturated and the latency percentiles under-state the queueing
 */
public record DetectionPolicy(double maxErrorRate, double minAchievedRatio) {

  public static DetectionPolicy defaults() {
    return new DetectionPolicy(0.01, 0.95);
  }

  public DetectionPolicy {
    if (!(maxErrorRate >= 0 && maxErrorRate < 1)) {
      throw new IllegalArgumentException("maxErrorRate must be in [0, 1), was " + maxErrorRate);
    }
    if (!(minAchievedRatio > 0 && minAchievedRatio <= 1)) {
      throw new IllegalArgumentException(
          "minAchievedRatio must be in (0, 1], was " + minAchievedRatio);
    }
  }

  /** Whether the step delivered its rate without too many errors (latency aside). */
  public boolean healthy(RatePoint p) {
    return p.errorRate() <= maxErrorRate && p.achievedRatio() >= minAchievedRatio;
  }
}
