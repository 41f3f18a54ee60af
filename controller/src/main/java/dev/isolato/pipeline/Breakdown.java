package dev.isolato.pipeline;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Seconds spent per step — a single-container measurement (the model's input), a prediction or
 * a measurement of a whole workload. Steps that are absent count as zero. Immutable.
 */
public record Breakdown(Map<Step, Double> seconds) {

  public Breakdown {
    EnumMap<Step, Double> copy = new EnumMap<>(Step.class);
    seconds.forEach((step, s) -> {
      if (s == null || !Double.isFinite(s) || s < 0) {
        throw new IllegalArgumentException("time of " + step.label() + " must be a finite number ≥ 0 s, got " + s);
      }
      copy.put(step, s);
    });
    seconds = Collections.unmodifiableMap(copy);
  }

  public static Breakdown of(Map<Step, Double> seconds) {
    return new Breakdown(seconds);
  }

  public double of(Step step) {
    return seconds.getOrDefault(step, 0.0);
  }

  public double stage(Stage stage) {
    return seconds.entrySet().stream().filter(e -> e.getKey().stage() == stage).mapToDouble(Map.Entry::getValue).sum();
  }

  public double total() {
    return seconds.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  /** The step's share of the total (0 when the total is 0), as plotted in the paper's Figure 8. */
  public double share(Step step) {
    double total = total();
    return total == 0 ? 0 : of(step) / total;
  }
}
