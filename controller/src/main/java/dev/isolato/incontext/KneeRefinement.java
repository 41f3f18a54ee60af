package dev.isolato.incontext;

import dev.isolato.slo.CutoffResult;
import dev.isolato.slo.StepVerdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The second pass of an in-context calibration: the ramp's steps are fractions of a reference rate
 * (up to 25 % apart), so its cut-off is only known to within one step; when the cut-off and the
 * confirmed violation above it are further apart than {@link #RESOLUTION} of the cut-off, {@link
 * #STEPS} evenly spaced steps inside that bracket narrow it to a quarter. The cut-off itself stays
 * the engine's, over the ramp's and the fine steps together (as the runner's bisection near the
 * knee, gatling/experiments/runner/knee.py, whose resolution goal this is).
 *
 * @param held the ramp's cut-off: the offered rate of its last step that held
 * @param failed the offered rate of the confirmed violation above it
 * @param rates the fine steps, ascending, strictly inside (held, failed)
 */
public record KneeRefinement(double held, double failed, List<Double> rates) {
  /** The cut-off's resolution goal: within 5 % of its value. */
  static final double RESOLUTION = 0.05;

  /** Fine steps: three split the bracket into quarters. */
  static final int STEPS = 3;

  public KneeRefinement {
    rates = List.copyOf(rates);
  }

  /** The refinement of a ramp's cut-off; empty when it has no bracket or one fine enough. */
  public static Optional<KneeRefinement> of(CutoffResult ramp) {
    if (!CutoffResult.FOUND.equals(ramp.status()) || ramp.violationStepIndex() == null) {
      return Optional.empty();
    }
    Optional<Double> held = offered(ramp, ramp.cutoffStepIndex());
    Optional<Double> failed = offered(ramp, ramp.violationStepIndex());
    if (held.isEmpty()
        || failed.isEmpty()
        || failed.get() - held.get() <= RESOLUTION * held.get()) {
      return Optional.empty();
    }
    double gap = failed.get() - held.get();
    List<Double> rates = new ArrayList<>();
    for (int k = 1; k <= STEPS; k++) {
      // one decimal, as the ramp's steps
      double r = Math.round((held.get() + gap * k / (STEPS + 1)) * 10) / 10.0;
      if (r > held.get()
          && r < failed.get()
          && (rates.isEmpty() || r > rates.get(rates.size() - 1))) {
        rates.add(r);
      }
    }
    return rates.isEmpty()
        ? Optional.empty()
        : Optional.of(new KneeRefinement(held.get(), failed.get(), rates));
  }

  private static Optional<Double> offered(CutoffResult r, Integer stepIndex) {
    return r.steps().stream()
        .filter(v -> stepIndex != null && v.stepIndex() == stepIndex)
        .map(StepVerdict::offeredRps)
        .findFirst();
  }
}
