package dev.isolato.pipeline.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.isolato.pipeline.ComponentSteps;
import dev.isolato.pipeline.Hardware;
import dev.isolato.pipeline.Measure;
import dev.isolato.pipeline.Parameter;
import dev.isolato.pipeline.Rules;
import dev.isolato.pipeline.Stage;
import dev.isolato.pipeline.Step;
import dev.isolato.pipeline.WorkloadShape;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The loop's measurement of an iteration, with a benchmark that answers given durations. */
class TuningLoopTest {
  static final CpuMeter.Usage NOT_MEASURED = new CpuMeter.Usage(false, 0, 0, 0, 0, 2, false);

  /** Single-pod runs take 1 s; the shape's runs take the given seconds in turn, all in S5. */
  static class Scripted implements PipelineBenchmark {
    final Iterator<Double> seconds;
    final List<String> names = new ArrayList<>();
    final List<WorkloadShape> shapes = new ArrayList<>();

    Scripted(Double... seconds) {
      this.seconds = List.of(seconds).iterator();
    }

    @Override
    public Hardware hardware() {
      return new Hardware(1, 2, 2);
    }

    @Override
    public Run run(WorkloadShape shape, String name) {
      names.add(name);
      shapes.add(shape);
      double s = shape.pods() == 1 ? 1.0 : seconds.next();
      // the kubelet timed every pod's sandbox at half the run, the API server each create at 4 ms,
      // and the controller manager's client waited 0.5 s for its token bucket; the pods were
      // created
      // over a tenth of the run
      return new Run(
          shape,
          Map.of(Stage.S1, 0.0, Stage.S5, s),
          s,
          NOT_MEASURED,
          new ComponentSteps(
              Map.of(Step.S5_SANDBOX, new Measure(shape.pods(), shape.pods() * s / 2)),
              Map.of(Step.S3_WRITE, new Measure(shape.pods(), shape.pods() * 0.004)),
              Map.of(Stage.Component.CONTROLLER_MANAGER, new Measure(shape.pods(), 0.5)),
              Map.of("scheduled", (long) shape.pods(), "error", 1L)),
          s / 10);
    }

    @Override
    public Set<String> notExercised() {
      return Set.of();
    }
  }

  static ClusterSettings nothingToChange() {
    return new ClusterSettings() {
      @Override
      public Parameter.Cluster cluster() {
        return Parameter.Cluster.LOCALKUBE;
      }

      @Override
      public Map<String, Double> current() {
        return Map.of();
      }

      @Override
      public String apply(Parameter p, double value) {
        throw new AssertionError("nothing is applied with maxChanges 0");
      }

      @Override
      public void restore() {}
    };
  }

  @Test
  void anIterationMeasuresTheMedianOfItsRepeatsAndKeepsThemAll() {
    Scripted bench = new Scripted(30.0, 10.0, 20.0);
    Analysis a =
        new TuningLoop(bench, nothingToChange(), Rules.kubernetes134(), 3)
            .run("t", new WorkloadShape(1, 20, 1), 0, line -> {}, x -> {});
    assertThat(a.status()).isEqualTo(Analysis.Status.DONE);
    Analysis.Iteration it = a.iterations().get(0);
    assertThat(it.repeatSeconds()).containsExactly(30.0, 10.0, 20.0);
    assertThat(it.measuredSeconds()).isEqualTo(20.0);
    assertThat(it.measured()).containsEntry(Stage.S5, 20.0);
    assertThat(bench.names).contains("t-1-r1", "t-1-r2", "t-1-r3");
    assertThat(TuningLoop.line(it)).contains("20.00 s measured (median of [30.00, 10.00, 20.00])");
  }

  @Test
  void theSingleRunHasTheShapesPodLimitAndTheComponentsStepsAreKept() {
    Scripted bench = new Scripted(8.0);
    Analysis a =
        new TuningLoop(bench, nothingToChange(), Rules.kubernetes134())
            .run("t", new WorkloadShape(50, 1, 1, 10), 0, line -> {}, x -> {});
    assertThat(bench.shapes).contains(new WorkloadShape(1, 1, 1, 10));
    Analysis.Iteration it = a.iterations().get(0);
    assertThat(it.kubeletSteps()).containsEntry(Step.S5_SANDBOX, new Measure(50, 200));
    assertThat(it.singleKubeletSteps().get(Step.S5_SANDBOX).mean()).isEqualTo(0.5);
    assertThat(TuningLoop.line(it)).contains("kubelet per pod: S5 T_cs 4.000 s ×50");
    assertThat(it.controlPlaneSteps().get(Step.S3_WRITE).mean()).isCloseTo(0.004, within(1e-12));
    assertThat(it.createSpanSeconds()).isEqualTo(0.8);
    assertThat(it.throttled())
        .containsEntry(Stage.Component.CONTROLLER_MANAGER, new Measure(50, 0.5));
    assertThat(TuningLoop.line(it))
        .contains("control plane per operation: S3 T_w 0.004 s ×50")
        .contains("API server's queues): controller_manager 0.50 s over 50 requests")
        .contains("scheduling attempts: 1 error 50 scheduled");
    // the kubelet reported sandbox and container at once (S6 reads 0): S5 is compared as part
    // of one stage-level S6 and its steps are not ranked; no step of the bottleneck was timed
    assertThat(it.s5AndS6Merged()).isTrue();
    assertThat(it.bottleneck().stage()).isEqualTo(Stage.S1);
    assertThat(it.bottleneckStep()).isNull();
    assertThat(TuningLoop.line(it)).doesNotContain(" at S");
    // 50 pods of 10m on 2 cores start their sandboxes at once: S5 is predicted once, not 25 times
    assertThat(it.predicted()).containsEntry(Stage.S5, 1.0);
  }

  @Test
  void oneRunIsItsOwnMedianAndAnEvenCountTakesTheLowerMiddle() {
    Scripted bench = new Scripted(12.0);
    Analysis a =
        new TuningLoop(bench, nothingToChange(), Rules.kubernetes134())
            .run("t", new WorkloadShape(1, 20, 1), 0, line -> {}, x -> {});
    assertThat(a.iterations().get(0).repeatSeconds()).containsExactly(12.0);
    assertThat(bench.names).contains("t-1");
    List<PipelineBenchmark.Run> four =
        List.of(40.0, 10.0, 30.0, 20.0).stream()
            .map(
                s ->
                    new PipelineBenchmark.Run(
                        new WorkloadShape(1, 2, 1), Map.of(), s, NOT_MEASURED))
            .toList();
    assertThat(TuningLoop.median(four).seconds()).isEqualTo(20.0);
    assertThatThrownBy(() -> new TuningLoop(bench, nothingToChange(), Rules.kubernetes134(), 0))
        .hasMessageContaining("repeats");
  }

  @Test
  void theSingleRunsAreThreeUnlessAskedForFewer() {
    Scripted three = new Scripted(12.0);
    new TuningLoop(three, nothingToChange(), Rules.kubernetes134())
        .run("t", new WorkloadShape(1, 20, 1), 0, line -> {}, x -> {});
    assertThat(three.names).contains("t-1-single-1", "t-1-single-2", "t-1-single-3");
    Scripted one = new Scripted(12.0);
    new TuningLoop(one, nothingToChange(), Rules.kubernetes134())
        .withSingleRuns(1)
        .run("t", new WorkloadShape(1, 20, 1), 0, line -> {}, x -> {});
    assertThat(one.names).contains("t-1-single-1").doesNotContain("t-1-single-2");
    TuningLoop loop = new TuningLoop(one, nothingToChange(), Rules.kubernetes134());
    assertThatThrownBy(() -> loop.withSingleRuns(0)).hasMessageContaining("--single-runs");
  }

  /** The planes at {@code busy} of 2 cores, read from their cgroups. */
  static CpuMeter.Usage usage(double busy) {
    return new CpuMeter.Usage(true, busy / 5, busy * 4 / 5, 0, busy, 2, true);
  }

  @Test
  void everyIterationReadsIdleBeforeItsRunsAndRecordsTheirCpuFloor() {
    Scripted bench =
        new Scripted(17.36) {
          @Override
          public CpuMeter.Usage idle() {
            names.add("idle");
            return usage(0.05);
          }

          @Override
          public Run run(WorkloadShape shape, String name) {
            Run r = super.run(shape, name);
            return new Run(r.shape(), r.stages(), r.seconds(), usage(0.85), r.steps());
          }
        };
    Analysis.Iteration it =
        new TuningLoop(bench, nothingToChange(), Rules.kubernetes134())
            .run("t", new WorkloadShape(1, 100, 1), 0, line -> {}, x -> {})
            .iterations()
            .get(0);
    // between the single-pod input and the measured runs
    assertThat(bench.names)
        .containsExactly("t-1-single-1", "t-1-single-2", "t-1-single-3", "idle", "t-1");
    assertThat(it.idleCpu().planesAndClient()).isEqualTo(0.05);
    assertThat(it.cpuFloor().floorSeconds()).isCloseTo(0.8 * 2 * 17.36 / 1.9, within(1e-9));
    assertThat(TuningLoop.line(it))
        .contains("CPU floor 14.62 s (27.8 core-s above idle 5 %: at most 16 % less");
  }

  @Test
  void withoutCpuReadThereIsNoFloor() {
    Analysis.Iteration it =
        new TuningLoop(new Scripted(12.0), nothingToChange(), Rules.kubernetes134())
            .run("t", new WorkloadShape(1, 20, 1), 0, line -> {}, x -> {})
            .iterations()
            .get(0);
    assertThat(it.idleCpu().measured()).isFalse();
    assertThat(it.cpuFloor()).isNull();
    assertThat(TuningLoop.line(it)).doesNotContain("CPU floor");
  }
}
