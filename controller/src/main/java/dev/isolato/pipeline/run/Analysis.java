package dev.isolato.pipeline.run;

import dev.isolato.pipeline.Bottleneck;
import dev.isolato.pipeline.CpuFloor;
import dev.isolato.pipeline.Hardware;
import dev.isolato.pipeline.Measure;
import dev.isolato.pipeline.Recommendation;
import dev.isolato.pipeline.Stage;
import dev.isolato.pipeline.Step;
import dev.isolato.pipeline.TuningStep;
import dev.isolato.pipeline.WorkloadShape;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One analysis (issue 11 items 4 and 6): the record of every iteration of the tuning loop for one
 * workload shape, as the REST API and {@code make tune} show it.
 *
 * @param workload what the shape deploys, in words (plain Deployments or one of Isolato's paths)
 * @param maxChanges settings the loop may change; 0 = measure and recommend only
 * @param startedFrom settings set before the first run (parameter id → value; {@code make tune
 *     TUNE_ARGS="--start …"}), empty when the loop started from the cluster's configuration
 * @param outcome one line: the reduction from the first to the last measurement and why it stopped
 */
public record Analysis(
    String id,
    String workload,
    WorkloadShape shape,
    int maxChanges,
    Map<String, Double> startedFrom,
    Status status,
    String cluster,
    Hardware hardware,
    Instant started,
    Instant finished,
    List<Iteration> iterations,
    String outcome,
    String error) {

  public enum Status {
    RUNNING,
    DONE,
    FAILED
  }

  public Analysis {
    startedFrom = Map.copyOf(startedFrom);
    iterations = List.copyOf(iterations);
  }

  static Analysis started(
      String id, String workload, WorkloadShape shape, int maxChanges, String cluster) {
    return new Analysis(
        id,
        workload,
        shape,
        maxChanges,
        Map.of(),
        Status.RUNNING,
        cluster,
        null,
        Instant.now(),
        null,
        List.of(),
        null,
        null);
  }

  Analysis with(Hardware h, List<Iteration> its) {
    return new Analysis(
        id,
        workload,
        shape,
        maxChanges,
        startedFrom,
        status,
        cluster,
        h,
        started,
        finished,
        its,
        outcome,
        error);
  }

  /** The same analysis, recorded as started from {@code settings} (parameter id → value). */
  public Analysis startingFrom(Map<String, Double> settings) {
    return new Analysis(
        id,
        workload,
        shape,
        maxChanges,
        settings,
        status,
        cluster,
        hardware,
        started,
        finished,
        iterations,
        outcome,
        error);
  }

  Analysis done(String summary) {
    return new Analysis(
        id,
        workload,
        shape,
        maxChanges,
        startedFrom,
        Status.DONE,
        cluster,
        hardware,
        started,
        Instant.now(),
        iterations,
        summary,
        null);
  }

  Analysis failed(String why) {
    return new Analysis(
        id,
        workload,
        shape,
        maxChanges,
        startedFrom,
        Status.FAILED,
        cluster,
        hardware,
        started,
        Instant.now(),
        iterations,
        outcome,
        why);
  }

  /**
   * One measurement and its decision.
   *
   * @param single the fastest of three 1 × 1 × 1 runs of this iteration: the model's input (Section
   *     4.8)
   * @param predicted the model's best case for the shape: equation (7) + S7
   * @param controlPlaneSteps S1–S4's and S7's steps as the control plane timed them over the
   *     measured run (localkube only; {@code ControlPlaneSteps})
   * @param throttled the requests' wait for a limit over the measured run, summed, by component:
   *     each client's for its own rate limiter, the API server's in its priority and fairness
   *     queues
   * @param schedulingAttempts the scheduler's attempts over the measured run by result ({@code
   *     ControlPlaneSteps.schedulingAttempts}; empty when it was not scraped)
   * @param createSpanSeconds the measured run's S3 up to its last pod's creation (traced)
   * @param s5AndS6Merged the kubelet reported sandbox and containers in one status update: the
   *     bottleneck was sought with S5 counted as S6 (docs/pipeline.md)
   * @param repeatSeconds every run of the shape in this iteration, in the order run; the measured
   *     one is their median (the lower one of an even count)
   * @param idleCpu the same CPU meter over {@link PipelineBenchmark#IDLE_WINDOW} with nothing
   *     deployed, after this iteration's single-pod runs and before its measured ones
   * @param cpuFloor the measured run's CPU floor (null when CPU was not measured)
   * @param bottleneckStep the step of the bottleneck stage with the largest gap, by the components'
   *     timings (null when they timed none of its steps; {@code Bottleneck.rankSteps})
   * @param measuredGain reduction from the previous iteration's measurement (after its change)
   * @param reverted a change undone because it gained less than 5 % when measured
   */
  public record Iteration(
      int iteration,
      double measuredSeconds,
      List<Double> repeatSeconds,
      Map<Stage, Double> measured,
      double predictedSeconds,
      Map<Stage, Double> predicted,
      Map<Stage, Double> single,
      Map<Step, Measure> kubeletSteps,
      Map<Step, Measure> singleKubeletSteps,
      Map<Step, Measure> controlPlaneSteps,
      Map<Stage.Component, Measure> throttled,
      Map<String, Long> schedulingAttempts,
      Double createSpanSeconds,
      boolean s5AndS6Merged,
      CpuMeter.Usage cpu,
      CpuMeter.Usage idleCpu,
      CpuFloor cpuFloor,
      BottleneckView bottleneck,
      StepView bottleneckStep,
      Change recommendation,
      List<Change> reported,
      TuningStep.Decision decision,
      String applied,
      Double measuredGain,
      String reverted) {

    public Iteration {
      reported = List.copyOf(reported);
    }
  }

  /** "S3 (84 % measured vs 12 % predicted)": a stage's or step's share of the run. */
  static String shares(String name, double measuredShare, double predictedShare) {
    return String.format(
        Locale.ROOT,
        "%s (%.0f %% measured vs %.0f %% predicted)",
        name,
        100 * measuredShare,
        100 * predictedShare);
  }

  /** The primary bottleneck, by stage. */
  public record BottleneckView(
      Stage stage,
      String title,
      double measuredSeconds,
      double predictedSeconds,
      double measuredShare,
      double predictedShare,
      double potentialGain) {
    /** For progress lines: "S3 (84 % measured vs 12 % predicted)". */
    @Override
    public String toString() {
      return shares(stage.name(), measuredShare, predictedShare);
    }

    public static BottleneckView of(Bottleneck b) {
      return new BottleneckView(
          b.stage(),
          b.stage().title(),
          b.measuredSeconds(),
          b.predictedSeconds(),
          b.measuredShare(),
          b.predictedShare(),
          b.potentialGain());
    }
  }

  /**
   * The bottleneck stage's step with the largest gap: its share of the stage's measured seconds as
   * the components timed it, against the model's.
   */
  public record StepView(
      Step step,
      String label,
      String description,
      double measuredSeconds,
      double predictedSeconds,
      double measuredShare,
      double predictedShare) {
    /** For progress lines: "S4 T_w (45 % measured vs 2 % predicted)". */
    @Override
    public String toString() {
      return shares(label, measuredShare, predictedShare);
    }

    static StepView of(Bottleneck b) {
      Step s = b.step().orElseThrow();
      return new StepView(
          s,
          s.label(),
          s.description(),
          b.measuredSeconds(),
          b.predictedSeconds(),
          b.measuredShare(),
          b.predictedShare());
    }
  }

  /**
   * A recommendation: {@code parameter} from → to, and where it is changed ({@code how}).
   *
   * @param stage the bottleneck stage it addresses: the primary one, or the next one when no rule
   *     of the primary may be applied
   */
  public record Change(
      String parameter,
      String component,
      Stage stage,
      double from,
      double to,
      double predictedGain,
      String where,
      String how,
      String note) {
    /**
     * For progress lines: "controller-manager.kube-api-qps 20 → 100 for S3 (predicted gain 6 %)".
     */
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%s %s → %s for %s (predicted gain %.0f %%)",
          parameter,
          ClusterSettings.format(from),
          ClusterSettings.format(to),
          stage,
          100 * predictedGain);
    }

    public static Change of(Recommendation r) {
      var p = r.parameter();
      return new Change(
          p.id(),
          p.component().name(),
          r.bottleneck().stage(),
          r.currentValue(),
          r.newValue(),
          r.predictedGain(),
          p.apply().where().name(),
          p.apply().how(),
          p.note());
    }
  }
}
