package dev.isolato.incontext;

import dev.isolato.slo.CutoffResult;
import dev.isolato.slo.StepVerdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The second pass of an in-context calibration. The ramp's steps are fractions of a reference rate
 * (up to 25 % apart), so its cut-off is known only to within one step, and a ramp that never failed
 * gives only a lower bound. So:
 *
 * <ul>
 *   <li><b>narrow</b>: when the cut-off and the confirmed violation above it are further apart than
 *       {@link #RESOLUTION} of the cut-off, {@link #STEPS} evenly spaced steps inside that bracket
 *       narrow it to a quarter (as the runner's bisection near the knee,
 *       gatling/experiments/runner/knee.py, whose resolution goal this is);
 *   <li><b>extend</b>: when no step failed, {@link #STEPS} + 1 steps above the ramp's top, each
 *       {@link #EXTENSION} of it further, look for the knee the ramp did not reach.
 * </ul>
 *
 * <p>Either pass begins with a <em>reference step</em> at the rate the ramp held last: it warms the
 * pass up at a rate known to hold (a pass that starts above the knee inherits its own backlog from
 * step to step) and re-measures the ramp in the pass's own moment. When the reference fails, the
 * pass ran in another context than the ramp (the replica not recovered, a neighbour started) and
 * its steps are not merged ({@link #refuted}). The cut-off itself stays the engine's, over both
 * passes' steps together.
 *
 * @param reference the ramp's cut-off: the offered rate of its last step that held
 * @param failed the offered rate of the confirmed violation above it; null when extending
 * @param rates the pass's steps, ascending: the reference, then the new rates
 */
public record KneeRefinement(double reference, Double failed, List<Double> rates) {
  /** The cut-off's resolution goal: within 5 % of its value. */
  static final double RESOLUTION = 0.05;

  /** Steps inside a bracket: three split it into quarters. */
  static final int STEPS = 3;

  /** An extension's steps are this fraction of the ramp's top apart. */
  static final double EXTENSION = 0.125;

  public KneeRefinement {
    rates = List.copyOf(rates);
  }

  /** Whether this pass looks above a ramp that never failed. */
  public boolean extending() {
    return failed == null;
  }

  /** The second pass a ramp's cut-off calls for; empty when it needs none (or has no figure). */
  public static Optional<KneeRefinement> of(CutoffResult ramp) {
    Optional<Double> held = offered(ramp, ramp.cutoffStepIndex());
    if (held.isEmpty()) {
      return Optional.empty(); // the lowest step failed: nothing held to start from
    }
    if (CutoffResult.NOT_REACHED.equals(ramp.status())) {
      List<Double> rates = new ArrayList<>(List.of(held.get()));
      for (int k = 1; k <= STEPS + 1; k++) {
        rates.add(oneDecimal(held.get() * (1 + EXTENSION * k)));
      }
      return Optional.of(new KneeRefinement(held.get(), null, rates));
    }
    Optional<Double> failed = offered(ramp, ramp.violationStepIndex());
    if (!CutoffResult.FOUND.equals(ramp.status())
        || failed.isEmpty()
        || failed.get() - held.get() <= RESOLUTION * held.get()) {
      return Optional.empty();
    }
    double gap = failed.get() - held.get();
    List<Double> rates = new ArrayList<>(List.of(held.get()));
    for (int k = 1; k <= STEPS; k++) {
      double r = oneDecimal(held.get() + gap * k / (STEPS + 1));
      if (r > rates.get(rates.size() - 1) && r < failed.get()) {
        rates.add(r);
      }
    }
    return rates.size() == 1
        ? Optional.empty()
        : Optional.of(new KneeRefinement(held.get(), failed.get(), rates));
  }

  /**
   * Why the second pass's steps cannot be merged with the ramp's: its reference step (index {@code
   * referenceIndex}, the pass's first) did not complete or did not hold.
   *
   * @param pass the engine's verdicts over the second pass's steps alone
   * @return the reason; empty when the reference held
   */
  public static Optional<String> refuted(CutoffResult pass, int referenceIndex) {
    Optional<StepVerdict> ref =
        pass.steps().stream().filter(v -> v.stepIndex() == referenceIndex).findFirst();
    if (ref.isEmpty()) {
      return Optional.of("its reference step (" + referenceIndex + ") did not complete");
    }
    StepVerdict v = ref.get();
    if (v.passed()) {
      return Optional.empty();
    }
    return Optional.of(
        "its reference step at the ramp's held "
            + StepPlan.number(v.offeredRps())
            + " req/s failed this time ("
            + String.join(", ", v.reasons())
            + ")");
  }

  private static double oneDecimal(double r) {
    return Math.round(r * 10) / 10.0; // as the ramp's steps
  }

  private static Optional<Double> offered(CutoffResult r, Integer stepIndex) {
    return r.steps().stream()
        .filter(v -> stepIndex != null && v.stepIndex() == stepIndex)
        .map(StepVerdict::offeredRps)
        .findFirst();
  }
}
