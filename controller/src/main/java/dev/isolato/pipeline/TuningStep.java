package dev.isolato.pipeline;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One iteration of the tuning loop (issue 11 item 4; Columbo Section 6.3), as pure logic: given a
 * stage-level measurement, the model's prediction and CPU utilisation, decide whether to apply one
 * recommendation or stop. Recorded as is for every iteration.
 *
 * @param reported violated rules Isolato may not apply on this cluster (for the admin)
 */
public record TuningStep(
    int iteration,
    Map<Stage, Double> measured,
    Breakdown predicted,
    Cpu cpu,
    Optional<Bottleneck> bottleneck,
    Optional<Recommendation> recommendation,
    List<Recommendation> reported,
    Decision decision) {

  /** Stop when a plane is this busy: Section 6.3 stopped at 100 % control plane / 90 % workers. */
  public static final double CPU_BOUND = 0.9;

  /** Stop when the predicted gain is below 5 % (issue 11). */
  public static final double MIN_GAIN = 0.05;

  /**
   * Peak CPU utilisation (0–1) of the control-plane node and of the busiest worker during the run.
   */
  public record Cpu(double controlPlane, double worker) {
    public Cpu {
      if (!(controlPlane >= 0 && worker >= 0)) {
        throw new IllegalArgumentException(
            "CPU utilisation must be ≥ 0, got " + controlPlane + " / " + worker);
      }
    }

    boolean bound() {
      return Math.max(controlPlane, worker) >= CPU_BOUND;
    }
  }

  public enum Decision {
    APPLY,
    STOP_CPU_BOUND,
    STOP_SMALL_GAIN,
    STOP_NO_RULE,
    STOP_NOTHING_MEASURED
  }

  public TuningStep {
    measured = Map.copyOf(measured);
    reported = List.copyOf(reported);
  }

  public static TuningStep decide(
      int iteration,
      Map<Stage, Double> measured,
      Breakdown predicted,
      Cpu cpu,
      WorkloadShape w,
      Hardware h,
      Map<String, Double> current,
      Parameter.Cluster cluster,
      Rules rules) {
    Optional<Bottleneck> b = Bottleneck.detectStage(measured, predicted);
    List<Recommendation> candidates =
        b.map(x -> rules.candidates(x, w, h, current)).orElse(List.of());
    Optional<Recommendation> apply =
        candidates.stream().filter(r -> r.appliesOn(cluster)).findFirst();
    List<Recommendation> reported = candidates.stream().filter(r -> !r.appliesOn(cluster)).toList();
    Decision d;
    if (b.isEmpty()) {
      d = Decision.STOP_NOTHING_MEASURED;
    } else if (cpu.bound()) {
      d = Decision.STOP_CPU_BOUND;
    } else if (b.get().potentialGain() < MIN_GAIN) {
      d = Decision.STOP_SMALL_GAIN;
    } else if (apply.isEmpty()) {
      d = Decision.STOP_NO_RULE;
    } else {
      d = Decision.APPLY;
    }
    return new TuningStep(
        iteration,
        measured,
        predicted,
        cpu,
        b,
        d == Decision.APPLY ? apply : Optional.empty(),
        reported,
        d);
  }

  /** Fractional reduction from one measured total to another (Fig. 8: 80.9 s → 16.9 s = 79.1 %). */
  public static double reduction(double before, double after) {
    return (before - after) / before;
  }
}
