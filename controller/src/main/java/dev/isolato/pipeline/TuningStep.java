package dev.isolato.pipeline;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One iteration of the tuning loop (issue 11 item 4; Columbo Section 6.3), as pure logic: given a
 * stage-level measurement, the model's prediction and CPU utilisation, decide whether to apply one
 * recommendation or stop. Recorded as is for every iteration.
 *
 * @param bottleneck the primary bottleneck: the stop rules are its
 * @param bottleneckStep the step of the primary bottleneck's stage with the largest gap, where the
 *     components timed its steps ({@link Bottleneck#rankSteps}); the rules of the stage's steps are
 *     tried in the order of their steps' gaps
 * @param recommendation for the primary bottleneck, or, when none of its rules may be applied here,
 *     for the next stage that took longer than predicted ({@link Recommendation#bottleneck})
 * @param reported violated rules Isolato may not apply on this cluster (for the admin), of every
 *     stage examined
 */
public record TuningStep(
    int iteration,
    Map<Stage, Double> measured,
    Breakdown predicted,
    Cpu cpu,
    Optional<Bottleneck> bottleneck,
    Optional<Bottleneck> bottleneckStep,
    Optional<Recommendation> recommendation,
    List<Recommendation> reported,
    Decision decision) {

  /**
   * Stop when the bottleneck stage's plane is this busy (its own processes, a fraction of the cores
   * it had). Columbo (Section 6.3) stopped at 100 % control plane / 90 % workers read as a peak;
   * the loop reads the average over the whole run, which includes the ramp before the first pods
   * reach the node and the tail after the last ones, when a saturated plane idles: 80 % of the
   * run's average is what a plane busy for the whole of its stage reaches (docs/pipeline.md "When
   * the loop calls it CPU-bound").
   */
  public static final double CPU_BOUND = 0.8;

  /** Stop when the predicted gain is below 5 % (issue 11). */
  public static final double MIN_GAIN = 0.05;

  /**
   * CPU utilisation (0–1 of the machine's cores) of the control plane's and of the node's own
   * processes during the run, and of the deployment's client when it is measured (Isolato's
   * controller on its own paths; 0 otherwise).
   *
   * @param sharedCores the planes and the client run on the same cores (single-node localkube), so
   *     each has only what the others leave
   */
  public record Cpu(double controlPlane, double worker, double client, boolean sharedCores) {
    public Cpu {
      if (!(controlPlane >= 0 && worker >= 0 && client >= 0)) {
        throw new IllegalArgumentException(
            "CPU utilisation must be ≥ 0, got " + controlPlane + " / " + worker + " / " + client);
      }
    }

    /** No client measured. */
    public Cpu(double controlPlane, double worker, boolean sharedCores) {
      this(controlPlane, worker, 0, sharedCores);
    }

    /** Planes on machines of their own (Columbo's setup), no client measured. */
    public Cpu(double controlPlane, double worker) {
      this(controlPlane, worker, false);
    }

    /**
     * Whether {@code stage} is CPU-bound: the processes doing it used at least {@link #CPU_BOUND}
     * of the cores available to them — all of them, or, with shared cores, those the rest left. S1
     * is the client's (it creates the workload objects) together with the control plane's; the
     * other stages are their plane's, with the client as other work. Work on the machine outside
     * the planes and the client does not count either way: a busy host is not a CPU-bound stage.
     */
    public boolean bound(Stage stage) {
      double own =
          stage.plane() == Stage.Plane.CONTROL
              ? controlPlane + (stage == Stage.S1 ? client : 0)
              : worker;
      double other = controlPlane + worker + client - own;
      double available = sharedCores ? Math.max(0, 1 - other) : 1;
      return own > 0 && own >= CPU_BOUND * available;
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
    return decide(
        iteration, measured, predicted, cpu, w, h, current, cluster, rules, Evidence.none());
  }

  /**
   * What a run measured beyond its stages that bounds what a change can gain.
   *
   * @param floor the run's CPU floor: no change the rules propose cuts CPU work, so none is
   *     predicted to gain more than the floor leaves ({@link CpuFloor#maxReduction}); when that is
   *     below {@link #MIN_GAIN} the run is CPU-bound whatever each plane's share
   * @param throttledSeconds by component, how long requests waited for its limit over the run,
   *     summed over them (absent: not read): a client's for its token bucket, the API server's in
   *     its priority and fairness queues. Raising a {@link Parameter.Throttle#queued} limit can
   *     take at most that off the run, so its predicted gain is capped at that share of the run,
   *     and below {@link #MIN_GAIN} it is not proposed.
   * @param stepSeconds each step's time as the components timed it, summed over its operations
   *     ({@link ComponentSteps#stepSeconds}; empty: the stages are not split)
   */
  public record Evidence(
      Optional<CpuFloor> floor,
      Map<Stage.Component, Double> throttledSeconds,
      Map<Step, Double> stepSeconds) {
    public Evidence {
      throttledSeconds = Map.copyOf(throttledSeconds);
      stepSeconds = Map.copyOf(stepSeconds);
    }

    public Evidence(Optional<CpuFloor> floor, Map<Stage.Component, Double> throttledSeconds) {
      this(floor, throttledSeconds, Map.of());
    }

    public static Evidence none() {
      return new Evidence(Optional.empty(), Map.of());
    }

    public static Evidence of(Optional<CpuFloor> floor) {
      return new Evidence(floor, Map.of());
    }

    /** The most any change can take off the run: a fraction, 1 when unknown. */
    double ceiling() {
      return floor.map(CpuFloor::maxReduction).orElse(1.0);
    }

    /**
     * The most raising {@code p} can take off a run of {@code runSeconds}: a fraction, 1 when
     * unknown.
     */
    double ceiling(Parameter p, double runSeconds) {
      return Math.min(ceiling(), waitShare(p, runSeconds));
    }

    /** Whether {@code p} is a queued limit its requests waited for too little to gain. */
    boolean unthrottled(Parameter p, double runSeconds) {
      return waitShare(p, runSeconds) < MIN_GAIN;
    }

    private double waitShare(Parameter p, double runSeconds) {
      Double waited = throttledSeconds.get(p.component());
      return p.throttle().queued() && waited != null && runSeconds > 0 ? waited / runSeconds : 1.0;
    }
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
      Rules rules,
      Evidence evidence) {
    double ceiling = evidence.ceiling();
    double runSeconds = measured.values().stream().mapToDouble(Double::doubleValue).sum();
    List<Bottleneck> ranked = Bottleneck.rankStages(measured, predicted);
    Optional<Bottleneck> b = ranked.stream().findFirst();
    Optional<Bottleneck> bStep = Optional.empty();
    // the primary bottleneck's rules first; when none of them may be applied here, the next
    // stages' that also took longer than predicted, worth 5 % and not CPU-bound, in gap order
    Optional<Recommendation> apply = Optional.empty();
    Map<String, Recommendation> reported = new LinkedHashMap<>();
    for (int k = 0; k < ranked.size(); k++) {
      Bottleneck next = ranked.get(k);
      if (k > 0
          && (next.gap() <= 0 || next.potentialGain() < MIN_GAIN || cpu.bound(next.stage()))) {
        continue;
      }
      List<Bottleneck> stepGaps = Bottleneck.rankSteps(next, evidence.stepSeconds(), predicted);
      if (k == 0) {
        bStep = stepGaps.stream().findFirst();
      }
      List<Step> steps = stepGaps.stream().map(x -> x.step().orElseThrow()).toList();
      List<Recommendation> candidates =
          rules.candidates(next, w, h, current).stream()
              .filter(r -> !evidence.unthrottled(r.parameter(), runSeconds))
              .map(r -> capped(r, evidence.ceiling(r.parameter(), runSeconds)))
              .sorted(Comparator.comparingInt(r -> firstLimited(r.parameter(), steps)))
              .toList();
      candidates.stream()
          .filter(r -> !r.appliesOn(cluster))
          .forEach(r -> reported.putIfAbsent(r.parameter().id(), r));
      apply = candidates.stream().filter(r -> r.appliesOn(cluster)).findFirst();
      if (apply.isPresent()) {
        break;
      }
    }
    Decision d;
    if (b.isEmpty()) {
      d = Decision.STOP_NOTHING_MEASURED;
    } else if (cpu.bound(b.get().stage())) {
      d = Decision.STOP_CPU_BOUND;
    } else if (b.get().potentialGain() < MIN_GAIN) {
      d = Decision.STOP_SMALL_GAIN;
    } else if (ceiling < MIN_GAIN) {
      d = Decision.STOP_CPU_BOUND;
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
        bStep,
        d == Decision.APPLY ? apply : Optional.empty(),
        List.copyOf(reported.values()),
        d);
  }

  /**
   * The rank of the first of {@code steps} (largest gap first) that {@code p} limits; after them
   * all when it limits none (a sort on it keeps the rules' own order within a step).
   */
  private static int firstLimited(Parameter p, List<Step> steps) {
    for (int i = 0; i < steps.size(); i++) {
      if (p.steps().contains(steps.get(i))) {
        return i;
      }
    }
    return steps.size();
  }

  private static Recommendation capped(Recommendation r, double ceiling) {
    return r.predictedGain() <= ceiling
        ? r
        : new Recommendation(
            r.parameter(),
            r.currentValue(),
            r.required(),
            r.newValue(),
            r.rounds(),
            r.bottleneck(),
            Math.max(0, ceiling));
  }

  /** Fractional reduction from one measured total to another (Fig. 8: 80.9 s → 16.9 s = 79.1 %). */
  public static double reduction(double before, double after) {
    return (before - after) / before;
  }
}
