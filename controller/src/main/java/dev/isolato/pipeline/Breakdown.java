package dev.isolato.pipeline;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Seconds spent per step — a single-container measurement (the model's input), a prediction or a
 * measurement of a whole workload. Steps that are absent count as zero. Immutable.
 */
public record Breakdown(Map<Step, Double> seconds) {

  public Breakdown {
    EnumMap<Step, Double> copy = new EnumMap<>(Step.class);
    seconds.forEach(
        (step, s) -> {
          if (s == null || !Double.isFinite(s) || s < 0) {
            throw new IllegalArgumentException(
                "time of " + step.label() + " must be a finite number ≥ 0 s, got " + s);
          }
          copy.put(step, s);
        });
    seconds = Collections.unmodifiableMap(copy);
  }

  public static Breakdown of(Map<Step, Double> seconds) {
    return new Breakdown(seconds);
  }

  /**
   * A stage-level measurement (the tracer's) as model input: each stage's seconds on one
   * representative step. Exact for C = 1; for C > 1 the S6 time is taken as per container.
   */
  public static Breakdown atStageLevel(Map<Stage, Double> stages) {
    Map<Step, Double> out = new EnumMap<>(Step.class);
    stages.forEach((stage, s) -> out.put(representative(stage), s));
    return of(out);
  }

  /**
   * A single pod's stages with S5 and S6 split into the steps its kubelet timed (T_cg, T_mv, T_cs,
   * T_cc, T_sc: work) and the rest of S5 + S6 as traced, put on T_pl (waiting: the relist that
   * notices the started container, and the status write). Without timed sandbox and container
   * starts, {@link #atStageLevel}.
   */
  public static Breakdown ofSingle(Map<Stage, Double> stages, Map<Step, Measure> kubelet) {
    Measure sandbox = kubelet.get(Step.S5_SANDBOX);
    Measure start = kubelet.get(Step.S6_START_CONTAINER);
    if (sandbox == null || sandbox.count() == 0 || start == null || start.count() == 0) {
      return atStageLevel(stages);
    }
    Map<Step, Double> out = new EnumMap<>(Step.class);
    stages.forEach(
        (stage, s) -> {
          if (stage != Stage.S5 && stage != Stage.S6) {
            out.put(representative(stage), s);
          }
        });
    double timed = 0;
    for (Map.Entry<Step, Measure> e : kubelet.entrySet()) {
      out.put(e.getKey(), e.getValue().mean());
      timed += e.getValue().mean();
    }
    double traced = stages.getOrDefault(Stage.S5, 0.0) + stages.getOrDefault(Stage.S6, 0.0);
    out.put(Step.S6_OBSERVE, Math.max(0, traced - timed));
    return of(out);
  }

  /** The step a stage-level time is put on: the one whose work dominates the stage. */
  static Step representative(Stage stage) {
    return switch (stage) {
      case S1 -> Step.S1_WRITE;
      case S2 -> Step.S2_READ;
      case S3 -> Step.S3_CREATE_POD_OBJECT;
      case S4 -> Step.S4_SCHEDULE;
      case S5 -> Step.S5_SANDBOX;
      case S6 -> Step.S6_CREATE_CONTAINER;
      case S7 -> Step.S7_PROBE;
    };
  }

  /** Seconds per stage. */
  public Map<Stage, Double> byStage() {
    Map<Stage, Double> out = new EnumMap<>(Stage.class);
    seconds.forEach((step, s) -> out.merge(step.stage(), s, Double::sum));
    return out;
  }

  public double of(Step step) {
    return seconds.getOrDefault(step, 0.0);
  }

  public double stage(Stage stage) {
    return seconds.entrySet().stream()
        .filter(e -> e.getKey().stage() == stage)
        .mapToDouble(Map.Entry::getValue)
        .sum();
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
