package dev.isolato.slo;

import dev.isolato.calibration.CalibrationContext;
import dev.isolato.calibration.CalibrationRun;
import dev.isolato.calibration.CalibrationStep;
import dev.isolato.calibration.LatencySummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Calibration runs generated from a known {@link UslModel}, with multiplicative noise. */
public final class SyntheticRuns {
  private SyntheticRuns() {}

  /**
   * A run of {@code rates} against {@code truth} at {@code replicas}; the p95 of each step is the
   * model's latency × (1 + noise·N(0,1)), the other percentiles are fixed ratios of it.
   */
  public static CalibrationRun run(
      String sloClass, UslModel truth, int replicas, double[] rates, double noise, Random random) {
    List<CalibrationStep> steps = new ArrayList<>(rates.length);
    for (int i = 0; i < rates.length; i++) {
      double p95 = truth.latencyMs(rates[i], replicas) * (1 + noise * random.nextGaussian());
      steps.add(step(i, rates[i], p95));
    }
    return run(sloClass, replicas, steps);
  }

  public static CalibrationRun run(String sloClass, int replicas, List<CalibrationStep> steps) {
    return new CalibrationRun(
        1,
        sloClass + "-synthetic",
        sloClass,
        false,
        new CalibrationContext("alone", "950m", "1900Mi", replicas, List.of(), Map.of(sloClass, 1)),
        steps);
  }

  /** A healthy step (no errors, achieved 99.5% of offered) whose p95 is {@code p95}. */
  public static CalibrationStep step(int index, double offeredRps, double p95) {
    long count = 1600;
    return new CalibrationStep(
        index,
        offeredRps,
        offeredRps * 0.995,
        count / offeredRps,
        new LatencySummary(count, 0, 0.6 * p95, 0.9 * p95, p95, 1.3 * p95, 2 * p95),
        Map.of());
  }

  /** Evenly spaced rates from {@code from} to {@code to} inclusive. */
  public static double[] rates(double from, double to, int steps) {
    double[] r = new double[steps];
    for (int i = 0; i < steps; i++) {
      r[i] = from + (to - from) * i / (steps - 1);
    }
    return r;
  }

  /**
   * A model with latency scale {@code s} whose per-replica cut-off for {@code k·s} ms is {@code
   * cutoff} rps, a fraction {@code betaShare} of the rise at the cut-off coming from β.
   */
  public static UslModel modelWithCutoff(
      double s, double k, double cutoff, double betaShare, double sigma) {
    double rise = k - 1;
    double alpha = (1 - betaShare) * rise / (cutoff - 1);
    double beta = betaShare * rise / (cutoff * (cutoff - 1));
    return new UslModel(s, alpha, beta, sigma);
  }
}
