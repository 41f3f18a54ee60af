package dev.isolato.slo;

import dev.isolato.calibration.CalibrationStep;
import dev.isolato.calibration.LatencySummary;

/**
 * One calibration step reduced to what detection and fitting use: the rates, the request and error
 * counts, and the latency at the class's target percentile.
 */
public record RatePoint(
    int stepIndex,
    int replicas,
    double offeredRps,
    double achievedRps,
    long count,
    long errors,
    double latencyMs) {

  /** The step's totals at {@code percentile}, measured with {@code replicas} pods. */
  public static RatePoint of(CalibrationStep step, int replicas, double percentile) {
    LatencySummary total = step.total();
    return new RatePoint(
        step.index(),
        replicas,
        step.offeredRps(),
        step.achievedRps(),
        total.count(),
        total.errors(),
        total.at(percentile));
  }

  public double errorRate() {
    return count == 0 ? 0 : (double) errors / count;
  }

  public double achievedRatio() {
    return achievedRps / offeredRps;
  }
}
