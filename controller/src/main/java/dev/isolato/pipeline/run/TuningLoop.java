package dev.isolato.pipeline.run;

import dev.isolato.pipeline.Breakdown;
import dev.isolato.pipeline.CpuFloor;
import dev.isolato.pipeline.Hardware;
import dev.isolato.pipeline.Measure;
import dev.isolato.pipeline.Recommendation;
import dev.isolato.pipeline.Rules;
import dev.isolato.pipeline.Stage;
import dev.isolato.pipeline.StageComparison;
import dev.isolato.pipeline.Step;
import dev.isolato.pipeline.TuningStep;
import dev.isolato.pipeline.WorkloadShape;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The tuning loop (issue 11 item 4; Columbo Section 3.1): benchmark the shape → per-stage measured
 * vs predicted → primary bottleneck → one recommendation → apply → measure again. Stops when the
 * control plane or the node is CPU-bound, the predicted gain is below 5 %, no rule can be applied,
 * or {@code maxChanges} settings were changed. A change whose measured gain is below 5 % is undone
 * and its parameter not proposed again (the next candidate is tried).
 */
public final class TuningLoop {

  private final PipelineBenchmark bench;
  private final ClusterSettings settings;
  private final Rules rules;
  private final int repeats;
  private final int singleRuns;

  public TuningLoop(PipelineBenchmark bench, ClusterSettings settings, Rules rules) {
    this(bench, settings, rules, 1);
  }

  /**
   * @param repeats runs of the shape per iteration, the median measured: on a noisy machine one run
   *     can keep or undo a change on noise
   */
  public TuningLoop(PipelineBenchmark bench, ClusterSettings settings, Rules rules, int repeats) {
    this(bench, settings, rules, repeats, SINGLE_RUNS);
  }

  private TuningLoop(
      PipelineBenchmark bench, ClusterSettings settings, Rules rules, int repeats, int singleRuns) {
    requireRepeats(repeats);
    requireSingleRuns(singleRuns);
    this.bench = bench;
    this.settings = settings;
    this.rules = rules;
    this.repeats = repeats;
    this.singleRuns = singleRuns;
  }

  /**
   * Runs the loop; {@code update} sees the analysis after each iteration, {@code progress} one line
   * per step. Returns the finished (or failed) analysis.
   */
  public Analysis run(
      String id,
      WorkloadShape shape,
      int maxChanges,
      Consumer<String> progress,
      Consumer<Analysis> update) {
    Analysis a =
        Analysis.started(id, bench.workload(shape), shape, maxChanges, settings.cluster().name());
    update.accept(a);
    List<Analysis.Iteration> its = new ArrayList<>();
    Hardware h = null;
    try {
      h = bench.hardware();
      a = a.with(h, its);
      update.accept(a);
      progress.accept(
          String.format(
              Locale.ROOT,
              "analysis %s: %d × %d pods (C=%d) on N=%d nodes, U_c=%d, U_w=%d, %s",
              id,
              shape.workloads(),
              shape.podsPerWorkload(),
              shape.containersPerPod(),
              h.nodes(),
              h.controlPlaneCores(),
              h.workerCores(),
              settings.cluster()));
      Map<String, Double> tried = new HashMap<>();
      bench.notExercised().forEach(p -> tried.put(p, Double.MAX_VALUE));
      Recommendation pending = null;
      int changes = 0;
      for (int i = 1; ; i++) {
        PipelineBenchmark.Run single = single(shape.single(), id + "-" + i);
        // after the single runs: a controller the loop just restarted has warmed up by then
        CpuMeter.Usage idle = bench.idle();
        List<PipelineBenchmark.Run> runs = repeated(shape, id + "-" + i);
        PipelineBenchmark.Run run = median(runs);
        StageComparison cmp =
            StageComparison.of(run.stages(), single.stages(), single.kubeletSteps(), shape, h);
        Breakdown predicted = cmp.predicted();
        Double gain =
            its.isEmpty()
                ? null
                : TuningStep.reduction(its.get(its.size() - 1).measuredSeconds(), run.seconds());
        String reverted = null;
        if (pending != null && gain != null && gain < TuningStep.MIN_GAIN) {
          settings.apply(pending.parameter(), pending.currentValue());
          reverted =
              pending.parameter().id()
                  + " back to "
                  + ClusterSettings.format(pending.currentValue());
          tried.put(pending.parameter().id(), Double.MAX_VALUE);
        }
        Optional<CpuFloor> floor = floor(run, idle);
        Map<String, Double> current = new HashMap<>(settings.current());
        current.putAll(tried); // a rule whose change did not pay is not proposed again
        TuningStep step =
            TuningStep.decide(
                i,
                cmp.measured(),
                cmp.compared(),
                // measured only on localkube, where both planes share this host's cores
                new TuningStep.Cpu(
                    run.cpu().controlPlane(), run.cpu().node(), run.cpu().measured()),
                shape,
                h,
                current,
                settings.cluster(),
                rules,
                new TuningStep.Evidence(
                    floor, run.steps().throttledSeconds(), stepSeconds(run, cmp)));
        boolean apply = step.decision() == TuningStep.Decision.APPLY && changes < maxChanges;
        String applied = null;
        if (apply) {
          Recommendation r = step.recommendation().orElseThrow();
          applied = settings.apply(r.parameter(), r.newValue());
          pending = r;
          changes++;
        } else {
          pending = null;
        }
        Analysis.Iteration it =
            new Analysis.Iteration(
                i,
                run.seconds(),
                runs.stream().map(PipelineBenchmark.Run::seconds).toList(),
                run.stages(),
                predicted.total(),
                predicted.byStage(),
                single.stages(),
                run.kubeletSteps(),
                single.kubeletSteps(),
                run.steps().controlPlane(),
                run.steps().throttled(),
                run.steps().schedulingAttempts(),
                run.createSpanSeconds(),
                cmp.s5AndS6Merged(),
                run.cpu(),
                idle,
                floor.orElse(null),
                step.bottleneck().map(Analysis.BottleneckView::of).orElse(null),
                step.bottleneckStep().map(Analysis.StepView::of).orElse(null),
                step.recommendation().map(Analysis.Change::of).orElse(null),
                step.reported().stream().map(Analysis.Change::of).toList(),
                step.decision(),
                applied,
                gain,
                reverted);
        its.add(it);
        a = a.with(h, its);
        update.accept(a);
        progress.accept(line(it));
        if (!apply) {
          return a.done(
              summary(
                  its,
                  step.decision(),
                  changes >= maxChanges && step.decision() == TuningStep.Decision.APPLY));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return a.with(h, its).failed("interrupted");
    } catch (RuntimeException e) {
      progress.accept("analysis " + id + " failed: " + e.getMessage());
      return a.with(h, its).failed(e.getMessage());
    }
  }

  /** The run's CPU floor when both it and the idle rate were measured. */
  static Optional<CpuFloor> floor(PipelineBenchmark.Run run, CpuMeter.Usage idle) {
    if (!run.cpu().measured() || !idle.measured()) {
      return Optional.empty();
    }
    return CpuFloor.of(
        run.seconds(), run.cpu().planesAndClient(), idle.planesAndClient(), run.cpu().cores());
  }

  /** The same loop measuring the median of {@code repeats} runs per iteration. */
  public TuningLoop withRepeats(int repeats) {
    return new TuningLoop(bench, settings, rules, repeats, singleRuns);
  }

  /**
   * The same loop taking the model's input from the fastest of {@code singleRuns} single-pod runs
   * per iteration (default {@value #SINGLE_RUNS}); one is enough where only the loop's path is
   * checked (`make test`), not its numbers.
   */
  public TuningLoop withSingleRuns(int singleRuns) {
    return new TuningLoop(bench, settings, rules, repeats, singleRuns);
  }

  /**
   * Refuses fewer than one run per iteration; the rule of the constructor and of the tuner's {@code
   * --repeats}.
   */
  public static int requireRepeats(int repeats) {
    return requireAtLeastOne("--repeats", repeats);
  }

  /** Refuses fewer than one single-pod run per iteration (the tuner's {@code --single-runs}). */
  public static int requireSingleRuns(int singleRuns) {
    return requireAtLeastOne("--single-runs", singleRuns);
  }

  private static int requireAtLeastOne(String option, int n) {
    if (n < 1) {
      throw new IllegalArgumentException(option + " must be at least 1, was " + n);
    }
    return n;
  }

  /**
   * Single-pod runs per iteration: the model's input is the fastest (a best case; one run is
   * noisy).
   */
  public static final int SINGLE_RUNS = 3;

  private PipelineBenchmark.Run single(WorkloadShape one, String name) throws InterruptedException {
    PipelineBenchmark.Run best = null;
    for (int k = 1; k <= singleRuns; k++) {
      PipelineBenchmark.Run r = bench.run(one, name + "-single-" + k);
      best = best == null || r.seconds() < best.seconds() ? r : best;
    }
    return best;
  }

  private List<PipelineBenchmark.Run> repeated(WorkloadShape shape, String name)
      throws InterruptedException {
    List<PipelineBenchmark.Run> runs = new ArrayList<>();
    for (int k = 1; k <= repeats; k++) {
      runs.add(bench.run(shape, repeats == 1 ? name : name + "-r" + k));
    }
    return runs;
  }

  /** The run of median duration (the lower of the two middle ones of an even count). */
  static PipelineBenchmark.Run median(List<PipelineBenchmark.Run> runs) {
    List<PipelineBenchmark.Run> sorted =
        runs.stream().sorted(Comparator.comparingDouble(PipelineBenchmark.Run::seconds)).toList();
    return sorted.get((sorted.size() - 1) / 2);
  }

  /**
   * The steps the components timed, for naming the bottleneck's step; without S5's and S6's when
   * the run is compared with S5 folded into S6: the model's side is then one stage-level S6.
   */
  private static Map<Step, Double> stepSeconds(PipelineBenchmark.Run run, StageComparison cmp) {
    Map<Step, Double> out = run.steps().stepSeconds();
    if (cmp.s5AndS6Merged()) {
      out.keySet().removeIf(s -> s.stage() == Stage.S5 || s.stage() == Stage.S6);
    }
    return out;
  }

  static String line(Analysis.Iteration it) {
    StringBuilder s =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "iteration %d: %.2f s measured%s, %.2f s best case;",
                it.iteration(),
                it.measuredSeconds(),
                it.repeatSeconds().size() < 2
                    ? ""
                    : " (median of "
                        + it.repeatSeconds().stream()
                            .map(x -> String.format(Locale.ROOT, "%.2f", x))
                            .toList()
                        + ")",
                it.predictedSeconds()));
    s.append(stages(it.measured(), it.predicted()));
    if (!it.kubeletSteps().isEmpty()) {
      s.append("; kubelet per pod:").append(steps(it.kubeletSteps()));
    }
    if (!it.controlPlaneSteps().isEmpty()) {
      s.append("; control plane per operation:").append(steps(it.controlPlaneSteps()));
    }
    if (!it.throttled().isEmpty()) {
      s.append("; waited for limits (clients' token buckets, API server's queues):");
      new TreeMap<>(it.throttled())
          .forEach(
              (c, m) ->
                  s.append(
                      String.format(
                          Locale.ROOT,
                          " %s %.2f s over %d requests",
                          c.name().toLowerCase(Locale.ROOT),
                          m.seconds(),
                          m.count())));
    }
    if (!it.schedulingAttempts().isEmpty()) {
      s.append("; scheduling attempts:");
      it.schedulingAttempts()
          .forEach((result, n) -> s.append(' ').append(n).append(' ').append(result));
    }
    s.append("; ").append(it.cpu());
    if (it.cpuFloor() != null) {
      s.append(
          String.format(
              Locale.ROOT,
              "; CPU floor %.2f s (%.1f core-s above idle %.0f %%: at most %.0f %% less without"
                  + " less CPU work)",
              it.cpuFloor().floorSeconds(),
              it.cpuFloor().workCoreSeconds(),
              100 * it.idleCpu().planesAndClient(),
              100 * it.cpuFloor().maxReduction()));
    }
    if (it.measuredGain() != null) {
      s.append(String.format(Locale.ROOT, "; gain %.1f %%", 100 * it.measuredGain()));
    }
    if (it.reverted() != null) {
      s.append("; reverted ").append(it.reverted());
    }
    if (it.bottleneck() != null) {
      s.append("; bottleneck ").append(it.bottleneck());
    }
    if (it.bottleneckStep() != null) {
      s.append(" at ").append(it.bottleneckStep());
    }
    s.append("; ").append(it.decision());
    if (it.recommendation() != null) {
      s.append(": ").append(it.recommendation());
    }
    if (!it.reported().isEmpty()) {
      s.append("; reported for the admin: ")
          .append(it.reported().stream().map(Analysis.Change::parameter).toList());
    }
    return s.toString();
  }

  /**
   * " S5 T_cs 1.970 s ×6 S6 T_sc 2.980 s ×6 …": the mean and count of each step a component timed.
   */
  static String steps(Map<Step, Measure> steps) {
    StringBuilder s = new StringBuilder();
    new TreeMap<>(steps)
        .forEach(
            (step, m) ->
                s.append(
                    String.format(
                        Locale.ROOT, " %s %.3f s ×%d", step.label(), m.mean(), m.count())));
    return s.toString();
  }

  /**
   * " S1 0.04/0.02 S3 3.60/0.50 …": measured/predicted seconds per stage (predicted may be null).
   */
  public static String stages(Map<Stage, Double> measured, Map<Stage, Double> predicted) {
    StringBuilder s = new StringBuilder();
    measured.forEach(
        (stage, sec) ->
            s.append(String.format(Locale.ROOT, " %s %.2f", stage, sec))
                .append(
                    predicted == null
                        ? ""
                        : String.format(Locale.ROOT, "/%.2f", predicted.getOrDefault(stage, 0.0))));
    return s.toString();
  }

  private static String summary(
      List<Analysis.Iteration> its, TuningStep.Decision last, boolean outOfChanges) {
    double first = its.get(0).measuredSeconds();
    double end = its.get(its.size() - 1).measuredSeconds();
    return String.format(
        Locale.ROOT,
        "%.2f s → %.2f s (%.1f %% less) in %d iterations; stopped: %s",
        first,
        end,
        100 * TuningStep.reduction(first, end),
        its.size(),
        outOfChanges ? "maxChanges reached" : last.name());
  }
}
