package dev.isolato.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BreakdownTest {

  /** A pause pod alone on localkube (07:44 UTC): the kubelet's own timings of its calls. */
  static final Map<Step, Measure> KUBELET =
      Map.of(
          Step.S5_CGROUP, new Measure(1, 0.0035),
          Step.S5_SANDBOX, new Measure(1, 0.099),
          Step.S6_CREATE_CONTAINER, new Measure(1, 0.010),
          Step.S6_START_CONTAINER, new Measure(1, 0.050));

  static Map<Stage, Double> single(double s5) {
    return Map.of(Stage.S1, 0.01, Stage.S3, 0.005, Stage.S4, 0.009, Stage.S5, s5, Stage.S6, 0.0);
  }

  @Test
  void theSinglePodsS5AndS6AreTheKubeletsStepsAndTheRestIsTheRelistWait() {
    Breakdown b = Breakdown.ofSingle(single(0.956), KUBELET);
    assertThat(b.of(Step.S5_SANDBOX)).isEqualTo(0.099);
    assertThat(b.of(Step.S6_START_CONTAINER)).isEqualTo(0.050);
    assertThat(b.of(Step.S6_OBSERVE)).isCloseTo(0.956 - 0.1625, within(1e-9));
    assertThat(b.total()).isCloseTo(0.01 + 0.005 + 0.009 + 0.956, within(1e-9));
  }

  @Test
  void theRelistPhaseOfTheSinglePodNoLongerScalesWithThePods() {
    // the same pod seen 0.58 s later or earlier by the kubelet's once-a-second relist: only the
    // kubelet's work is spread over the cores, the wait counts once
    WorkloadShape hundred = new WorkloadShape(1, 100, 1);
    Hardware twoCores = new Hardware(1, 2, 2);
    Breakdown late =
        PipelineModel.predict(Breakdown.ofSingle(single(0.956), KUBELET), hundred, twoCores);
    Breakdown early =
        PipelineModel.predict(Breakdown.ofSingle(single(0.378), KUBELET), hundred, twoCores);
    assertThat(late.total() - early.total()).isCloseTo(0.578, within(1e-9));
    assertThat(late.stage(Stage.S5)).isCloseTo(50 * 0.1025, within(1e-9));
    assertThat(late.stage(Stage.S6)).isCloseTo(50 * 0.060 + 0.7935, within(1e-9));
    // at stage level the same difference was multiplied by ⌈100/2⌉ rounds
    Breakdown stageLevel =
        PipelineModel.predict(Breakdown.atStageLevel(single(0.956)), hundred, twoCores);
    assertThat(stageLevel.stage(Stage.S5)).isCloseTo(50 * 0.956, within(1e-9));
  }

  @Test
  void withoutTimedSandboxAndContainerStartTheStagesAreTheInput() {
    assertThat(Breakdown.ofSingle(single(0.5), Map.of()))
        .isEqualTo(Breakdown.atStageLevel(single(0.5)));
    assertThat(Breakdown.ofSingle(single(0.5), Map.of(Step.S5_SANDBOX, new Measure(1, 0.1))))
        .isEqualTo(Breakdown.atStageLevel(single(0.5)));
  }

  @Test
  void stepsTimedLongerThanTracedLeaveNoWait() {
    Breakdown b = Breakdown.ofSingle(single(0.1), KUBELET);
    assertThat(b.of(Step.S6_OBSERVE)).isZero();
  }
}
