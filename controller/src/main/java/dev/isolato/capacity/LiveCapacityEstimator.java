package dev.isolato.capacity;

import dev.isolato.slo.BestFit;
import dev.isolato.slo.DetectionPolicy;
import dev.isolato.slo.FitPolicy;
import dev.isolato.slo.ModelFit;
import dev.isolato.slo.RatePoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A pod's cut-off from live windows, conservative by construction: never above a rate at which the
 * SLO failed in two windows, and resting on a rate at which it held when one exists. When the
 * windows cover enough of the curve the calibration's own fitters ({@link BestFit}) refit the
 * latency model on them and its cut-off at the target is used instead.
 */
public final class LiveCapacityEstimator {
  private final VerificationPolicy policy;
  private final BestFit fitter = new BestFit(FitPolicy.defaults(), DetectionPolicy.defaults());

  public LiveCapacityEstimator(VerificationPolicy policy) {
    this.policy = policy;
  }

  /** The estimate from {@code windows} (any order); empty when none is active. */
  public Optional<LiveEstimate> estimate(
      List<LiveWindow> windows, double percentile, double targetMs) {
    List<LiveWindow> active = windows.stream().filter(LiveWindow::active).toList();
    if (active.isEmpty()) {
      return Optional.empty();
    }
    double[] failing =
        active.stream()
            .filter(w -> w.latencyMs() > targetMs)
            .mapToDouble(LiveWindow::perPodRps)
            .sorted()
            .toArray();
    if (failing.length == 0) {
      double seen = active.stream().mapToDouble(LiveWindow::perPodRps).max().orElseThrow();
      return Optional.of(new LiveEstimate(seen, 0, LiveEstimate.HOLDING, active.size(), null));
    }
    // the second-lowest failing rate: one noisy window alone does not set the bound
    double upper = failing[Math.min(1, failing.length - 1)];
    double lower =
        active.stream()
            .filter(w -> w.latencyMs() <= targetMs && w.perPodRps() < upper)
            .mapToDouble(LiveWindow::perPodRps)
            .max()
            .orElse(Double.NaN);
    if (Double.isNaN(lower)) {
      double est = upper * policy.saturationMargin();
      return Optional.of(
          new LiveEstimate(est, upper - est, LiveEstimate.SATURATION, active.size(), upper));
    }
    Optional<Double> refit = refit(active, percentile, targetMs, upper);
    if (refit.isPresent()) {
      return Optional.of(
          new LiveEstimate(
              refit.get(), (upper - lower) / 2, LiveEstimate.REFIT, active.size(), upper));
    }
    // a rate that held far below the failures (a new pod's first point) says little: more
    // evidence must not give a lower figure than none, so the saturation share is the floor
    double saturation = upper * policy.saturationMargin();
    return Optional.of(
        lower >= saturation
            ? new LiveEstimate(
                lower, (upper - lower) / 2, LiveEstimate.BRACKET, active.size(), upper)
            : new LiveEstimate(
                saturation, upper - saturation, LiveEstimate.SATURATION, active.size(), upper));
  }

  /**
   * The refitted model's per-pod cut-off at the target, capped at {@code upper}; empty when the
   * windows are too few, span too little of the curve, or the fit is not trusted.
   */
  private Optional<Double> refit(
      List<LiveWindow> active, double percentile, double targetMs, double upper) {
    double min = active.stream().mapToDouble(LiveWindow::perPodRps).min().orElseThrow();
    double max = active.stream().mapToDouble(LiveWindow::perPodRps).max().orElseThrow();
    if (active.size() < policy.minRefitPoints() || max - min < policy.minCoverage() * upper) {
      return Optional.empty();
    }
    List<RatePoint> points = new ArrayList<>(active.size());
    for (int i = 0; i < active.size(); i++) {
      LiveWindow w = active.get(i);
      // per pod, as one replica: the live windows say what one pod did at its share of the load
      points.add(new RatePoint(i, 1, w.perPodRps(), w.perPodRps(), 1, 0, w.latencyMs()));
    }
    ModelFit fit = fitter.fit(points, percentile, targetMs);
    if (!fit.trusted()) {
      return Optional.empty();
    }
    double cutoff = fit.model().perReplicaCutoffRps(targetMs);
    return cutoff > 0 && Double.isFinite(cutoff)
        ? Optional.of(Math.min(cutoff, upper))
        : Optional.empty();
  }
}
