package dev.isolato.slo;

import static dev.isolato.slo.Text.fmt;

import java.util.List;

/**
 * Fits every model form on the same calibration steps and keeps the better one: of the trusted
 * fits, the one with the higher R² (latency in ms, over the healthy steps; on a tie the USL form);
 * when no form is trusted, the USL fit (with its reasons), since the planner falls back to the
 * linear baseline anyway. The kept fit notes how the other form did.
 */
public final class BestFit {
  private final List<ModelFitter> fitters;

  public BestFit(FitPolicy policy, DetectionPolicy health) {
    this.fitters = List.of(new UslFitter(policy, health), new QueueFitter(policy, health));
  }

  public ModelFit fit(List<RatePoint> points, double percentile) {
    return fit(points, percentile, null);
  }

  /** The better form's fit for {@code targetMs} ({@link ModelFitter#fit(List, double, Double)}). */
  public ModelFit fit(List<RatePoint> points, double percentile, Double targetMs) {
    List<ModelFit> fits = fitters.stream().map(f -> f.fit(points, percentile, targetMs)).toList();
    ModelFit best = fits.get(0);
    for (ModelFit candidate : fits) {
      if (candidate.trusted() && (!best.trusted() || candidate.rSquared() > best.rSquared())) {
        best = candidate;
      }
    }
    ModelFit chosen = best;
    for (ModelFit other : fits) {
      if (!other.equals(chosen)) {
        best =
            best.withNote(
                fmt(
                    "%s form not chosen: %s, R² %.3f%s",
                    other.form(),
                    other.status(),
                    other.rSquared(),
                    other.reasons().isEmpty()
                        ? ""
                        : " (" + String.join("; ", other.reasons()) + ")"));
      }
    }
    return best;
  }
}
