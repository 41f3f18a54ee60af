package dev.isolato.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Columbo's model against what the paper publishes (Jansen et al., ICPE'25). The paper gives totals
 * and shares, never its per-step inputs, so these tests reproduce its published arithmetic and
 * structure; where a split of a total is needed it is invented and said so.
 */
class PipelineModelTest {

  /** Section 6.1: e2-highmem-8 machines, 8 cores on the control plane and on each worker. */
  static final int CORES = 8;

  /**
   * An invented split of Figure 5's single-container deployment (0.94 s) over all 18 paper steps.
   */
  static Breakdown figure5Split() {
    Map<Step, Double> m = new EnumMap<>(Step.class);
    Arrays.stream(Step.values()).filter(Step::inPaper).forEach(s -> m.put(s, 0.94 / 18));
    return Breakdown.of(m);
  }

  @Test
  void singleContainerPredictionIsTheMeasuredSingleContainer_section48_figure5() {
    Breakdown single = figure5Split();
    Breakdown predicted =
        PipelineModel.predict(single, new WorkloadShape(1, 1, 1), new Hardware(1, CORES, CORES));
    assertThat(predicted.total()).isCloseTo(0.94, within(1e-9));
    assertThat(predicted).isEqualTo(single);
  }

  @Test
  void equation7RoundsForFigure8Shape_1600PodsOn16Nodes() {
    // Section 6.5 per-pod method: one workload of 1600 pods, one container each, 16 workers.
    WorkloadShape w = new WorkloadShape(1, 1600, 1);
    Hardware h = new Hardware(16, CORES, CORES);
    assertThat(PipelineModel.rounds(Stage.S1, w, h)).isEqualTo(1); // ⌈J/U_c⌉ = ⌈1/8⌉
    assertThat(PipelineModel.rounds(Stage.S2, w, h)).isEqualTo(1);
    assertThat(PipelineModel.rounds(Stage.S3, w, h)).isEqualTo(200); // ⌈J·P/U_c⌉ = ⌈1600/8⌉
    assertThat(PipelineModel.rounds(Stage.S4, w, h)).isEqualTo(200);
    assertThat(PipelineModel.rounds(Stage.S5, w, h)).isEqualTo(13); // ⌈J·P/(N·U_w)⌉ = ⌈1600/128⌉
    assertThat(PipelineModel.rounds(Stage.S6, w, h)).isEqualTo(13);
  }

  @Test
  void equation7TotalIsStageTimesRounds() {
    Map<Step, Double> m = new EnumMap<>(Step.class);
    m.put(Step.S1_WRITE, 0.010); // T_S1
    m.put(Step.S2_READ, 0.020); // T_S2
    m.put(Step.S3_CREATE_POD_OBJECT, 0.001); // T_S3
    m.put(Step.S4_SCHEDULE, 0.002); // T_S4
    m.put(Step.S5_SANDBOX, 0.300); // T_S5
    m.put(Step.S6_START_CONTAINER, 0.100); // T_S6 (per container)
    WorkloadShape w = new WorkloadShape(10, 20, 3);
    Hardware h = new Hardware(2, 4, 6);
    double expected =
        (0.010 + 0.020) * Math.ceil(10 / 4.0)
            + (0.001 + 0.002) * Math.ceil(200 / 4.0)
            + (0.300 + 3 * 0.100) * Math.ceil(200 / 12.0);
    assertThat(PipelineModel.predict(Breakdown.of(m), w, h).total())
        .isCloseTo(expected, within(1e-12));
  }

  @Test
  void containersOfAPodAreSequential_equation6_finding5() {
    // Section 6.4: 100 containers as one pod ("per-container") vs 100 pods ("per-pod"). With
    // the same step times, eq. (6) makes S6 of one 100-container pod 100 executions on one core,
    // while 100 single-container pods spread over 8 cores: ⌈100/8⌉ = 13 rounds (Finding 5).
    Breakdown single = figure5Split();
    Hardware h = new Hardware(1, CORES, CORES);
    Breakdown perContainer = PipelineModel.predict(single, new WorkloadShape(1, 1, 100), h);
    Breakdown perPod = PipelineModel.predict(single, new WorkloadShape(1, 100, 1), h);
    assertThat(perContainer.stage(Stage.S6)).isCloseTo(100 * single.stage(Stage.S6), within(1e-9));
    assertThat(perPod.stage(Stage.S6)).isCloseTo(13 * single.stage(Stage.S6), within(1e-9));
    assertThat(PipelineModel.stageTime(single, Stage.S6, 100))
        .isCloseTo(100 * single.stage(Stage.S6), within(1e-9));
    assertThat(PipelineModel.stageTime(single, Stage.S5, 100))
        .isCloseTo(single.stage(Stage.S5), within(1e-9));
  }

  @Test
  void moreWorkersOnlyShrinkTheWorkerStages_finding6() {
    // Section 6.5 strong scalability: 100 pods over 1..16 workers; control-plane stages stay.
    Breakdown single = figure5Split();
    WorkloadShape w = new WorkloadShape(1, 100, 1);
    Breakdown one = PipelineModel.predict(single, w, new Hardware(1, CORES, CORES));
    Breakdown sixteen = PipelineModel.predict(single, w, new Hardware(16, CORES, CORES));
    assertThat(sixteen.stage(Stage.S3)).isEqualTo(one.stage(Stage.S3));
    assertThat(sixteen.stage(Stage.S5)).isLessThan(one.stage(Stage.S5) / 10);
  }

  @Test
  void aPodsCpuLimitBelowOneCoreLetsMorePodsThroughTheWorkerStagesAtOnce() {
    Hardware twoCores = new Hardware(1, 2, 2);
    // no limit, or a core or more: one pod per core, as in the paper
    assertThat(PipelineModel.workerSlots(new WorkloadShape(50, 1, 1), twoCores)).isEqualTo(2);
    assertThat(PipelineModel.workerSlots(new WorkloadShape(50, 1, 1, 1000), twoCores)).isEqualTo(2);
    assertThat(PipelineModel.workerSlots(new WorkloadShape(50, 1, 1, 4000), twoCores)).isEqualTo(2);
    // throttled to 500m / 10m: each occupies half / a hundredth of a core
    assertThat(PipelineModel.workerSlots(new WorkloadShape(50, 1, 1, 500), twoCores)).isEqualTo(4);
    assertThat(PipelineModel.workerSlots(new WorkloadShape(50, 1, 1, 10), twoCores)).isEqualTo(200);
    assertThat(PipelineModel.workerSlots(new WorkloadShape(50, 1, 1, 3), twoCores)).isEqualTo(666);
    // 50 pods of 10m on 2 cores: S5–S6 once, the control-plane stages as before (⌈50/2⌉)
    WorkloadShape throttled = new WorkloadShape(50, 1, 1, 10);
    Breakdown single = figure5Split();
    Breakdown p = PipelineModel.predict(single, throttled, twoCores);
    assertThat(p.stage(Stage.S5)).isCloseTo(single.stage(Stage.S5), within(1e-9));
    assertThat(p.stage(Stage.S3)).isCloseTo(25 * single.stage(Stage.S3), within(1e-9));
    Breakdown unlimited = PipelineModel.predict(single, new WorkloadShape(50, 1, 1), twoCores);
    assertThat(unlimited.stage(Stage.S5)).isCloseTo(25 * single.stage(Stage.S5), within(1e-9));
    assertThat(throttled.single()).isEqualTo(new WorkloadShape(1, 1, 1, 10));
  }

  @Test
  void badInputIsRefusedWithTheName() {
    assertThatThrownBy(() -> new WorkloadShape(1, 1, 1, -1))
        .hasMessageContaining("podCpuLimitMillis");
    assertThatThrownBy(() -> new WorkloadShape(0, 1, 1)).hasMessageContaining("workloads (J)");
    assertThatThrownBy(() -> new Hardware(1, 0, 1)).hasMessageContaining("controlPlaneCores (U_c)");
    assertThatThrownBy(() -> Breakdown.of(Map.of(Step.S2_READ, -1.0)))
        .hasMessageContaining("S2 T_r");
    assertThatThrownBy(() -> Breakdown.of(Map.of(Step.S2_READ, Double.NaN)))
        .hasMessageContaining("finite");
  }

  @Test
  void stagesCoverTheTwentySixStepsOfFigure4() {
    int steps =
        Arrays.stream(Stage.values())
            .filter(Stage::inPaper)
            .mapToInt(s -> s.lastFigureStep() - s.firstFigureStep() + 1)
            .sum();
    assertThat(steps).isEqualTo(26);
    assertThat(Arrays.stream(Step.values()).filter(Step::inPaper).count()).isEqualTo(18);
  }
}
