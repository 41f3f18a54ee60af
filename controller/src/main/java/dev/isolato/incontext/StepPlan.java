package dev.isolato.incontext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The ramp of an in-context calibration (issue 34 item 1): steps at fixed fractions of a reference
 * per-pod rate (the class's current figure), the same number of requests in every step, sized so
 * that the planned duration fits the budget. The steps below the reference find where p95 still
 * holds; the steps above it make sure a too-high declared figure is refuted within the run.
 *
 * @param rates offered req/s of each step, ascending
 * @param requestsPerStep requests of every step (the referee's fixed count per step)
 * @param planned the steps' planned duration (requests / rate, summed), warm-up excluded
 * @param bound the generator's hard bound: planned plus slack for overloaded steps
 */
public record StepPlan(List<Double> rates, int requestsPerStep, Duration planned, Duration bound) {
  /** Fractions of the reference rate: 4 below it, the reference, 2 above. */
  static final double[] FRACTIONS = {0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5};

  /** A step's p95 needs enough requests to mean something (72 give it a confidence bound). */
  static final int MIN_REQUESTS = 100;

  static final int MAX_REQUESTS = 20_000;

  /** Overloaded steps last longer than planned (requests queue): half the plan again, at least. */
  static final double SLACK = 0.5;

  public StepPlan {
    rates = List.copyOf(rates);
  }

  /**
   * The ramp around a reference rate.
   *
   * @param referencePerPodRps the class's current per-pod figure (declared or calibrated), > 0
   * @param budget the planned duration of the steps, ≥ 10 s
   */
  public static StepPlan of(double referencePerPodRps, Duration budget) {
    if (!(referencePerPodRps > 0) || Double.isInfinite(referencePerPodRps)) {
      throw new IllegalArgumentException(
          "reference rate must be > 0 and finite, was " + referencePerPodRps);
    }
    if (budget.compareTo(Duration.ofSeconds(10)) < 0) {
      throw new IllegalArgumentException("budget must be >= 10 s, was " + budget);
    }
    List<Double> rates = new ArrayList<>();
    for (double f : FRACTIONS) {
      // one decimal: the referee's flags and the stored steps read well, and 0.1 req/s is noise
      double r = Math.max(0.5, Math.round(referencePerPodRps * f * 10) / 10.0);
      if (rates.isEmpty() || r > rates.get(rates.size() - 1)) {
        rates.add(r);
      }
    }
    double inverseSum = rates.stream().mapToDouble(r -> 1 / r).sum();
    int requests =
        (int)
            Math.max(
                MIN_REQUESTS,
                Math.min(MAX_REQUESTS, Math.floor(budget.toMillis() / 1000.0 / inverseSum)));
    return of(rates, requests);
  }

  /** The plan of these steps (as stored in a calibration's status): its duration and bound. */
  public static StepPlan of(List<Double> rates, int requestsPerStep) {
    double inverseSum = rates.stream().mapToDouble(r -> 1 / r).sum();
    Duration planned = Duration.ofMillis(Math.round(requestsPerStep * inverseSum * 1000));
    Duration bound = planned.plus(Duration.ofMillis(Math.round(planned.toMillis() * SLACK)));
    return new StepPlan(rates, requestsPerStep, planned, bound.plusSeconds(10));
  }

  /** The rates as the referee's {@code -rates} flag. */
  public String ratesFlag() {
    return String.join(",", rates.stream().map(StepPlan::number).toList());
  }

  static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
