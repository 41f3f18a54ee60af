package dev.isolato.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TimelineTest {

  static final Map<Milestone, Long> WORKLOAD =
      Map.of(
          Milestone.SUBMITTED,
          1000L,
          Milestone.WORKLOAD_CREATED,
          1040L,
          Milestone.WORKLOAD_UNPACKED,
          1100L);

  @Test
  void stagesFollowTheLastPodAndAddUpToTheDeploymentTime() {
    Timeline t =
        new Timeline(
            WORKLOAD,
            Map.of(
                "fast",
                    Map.of(
                        Milestone.POD_CREATED,
                        1200L,
                        Milestone.POD_BOUND,
                        1250L,
                        Milestone.SANDBOX_READY,
                        1500L,
                        Milestone.CONTAINERS_STARTED,
                        1700L),
                "slow",
                    Map.of(
                        Milestone.POD_CREATED,
                        1300L,
                        Milestone.POD_BOUND,
                        1400L,
                        Milestone.SANDBOX_READY,
                        2100L,
                        Milestone.CONTAINERS_STARTED,
                        2600L)));
    assertThat(t.lastPod(Milestone.CONTAINERS_STARTED)).contains("slow");
    Map<Stage, Double> s = t.stageSeconds(Milestone.CONTAINERS_STARTED);
    assertThat(s)
        .containsEntry(Stage.S1, 0.04)
        .containsEntry(Stage.S2, 0.06)
        .containsEntry(Stage.S3, 0.2)
        .containsEntry(Stage.S4, 0.1)
        .containsEntry(Stage.S5, 0.7)
        .containsEntry(Stage.S6, 0.5);
    assertThat(s.values().stream().mapToDouble(Double::doubleValue).sum())
        .isCloseTo(t.totalSeconds(Milestone.CONTAINERS_STARTED).orElseThrow(), within(1e-9));
    assertThat(t.podsAt(Milestone.CONTAINERS_STARTED)).isEqualTo(2);
  }

  @Test
  void unseenMilestonesAreSkippedNotInvented() {
    // The sandbox mark was missed (no PodReadyToStartContainers, no IP yet): S5 and S6 merge into
    // S6.
    Timeline t =
        new Timeline(
            WORKLOAD,
            Map.of(
                "p",
                Map.of(
                    Milestone.POD_CREATED,
                    1300L,
                    Milestone.POD_BOUND,
                    1400L,
                    Milestone.CONTAINERS_STARTED,
                    2600L)));
    assertThat(t.stageSeconds(Milestone.CONTAINERS_STARTED))
        .doesNotContainKey(Stage.S5)
        .containsEntry(Stage.S6, 1.2);
  }

  @Test
  void nothingReachedYet() {
    Timeline t = new Timeline(WORKLOAD, Map.of("p", Map.of(Milestone.POD_CREATED, 1300L)));
    assertThat(t.totalSeconds(Milestone.POD_READY)).isEmpty();
    assertThat(t.stageSeconds(Milestone.POD_READY)).containsOnlyKeys(Stage.S1, Stage.S2);
  }

  @Test
  void stagesFeedTheStageLevelBottleneck() {
    Timeline t =
        new Timeline(
            WORKLOAD,
            Map.of(
                "p",
                Map.of(
                    Milestone.POD_CREATED,
                    5100L,
                    Milestone.POD_BOUND,
                    5150L,
                    Milestone.SANDBOX_READY,
                    5400L,
                    Milestone.CONTAINERS_STARTED,
                    5600L)));
    Map<Step, Double> single =
        Map.of(
            Step.S1_WRITE,
            0.04,
            Step.S2_READ,
            0.06,
            Step.S3_CREATE_POD_OBJECT,
            0.05,
            Step.S4_SCHEDULE,
            0.05,
            Step.S5_SANDBOX,
            0.25,
            Step.S6_START_CONTAINER,
            0.2);
    Bottleneck b =
        Bottleneck.detectStage(t.stageSeconds(Milestone.CONTAINERS_STARTED), Breakdown.of(single))
            .orElseThrow();
    assertThat(b.stage())
        .isEqualTo(Stage.S3); // 4 s creating the pod object where 0.05 s was expected
    assertThat(b.step()).isEmpty();
    assertThat(b.potentialGain()).isCloseTo((4.0 - 0.05) / 4.6, within(1e-9));
  }

  @Test
  void severalWorkloadsFollowTheOneThatFinishedLastFromTheFirstSubmission() {
    Timeline early =
        new Timeline(
            WORKLOAD,
            Map.of("a", Map.of(Milestone.POD_CREATED, 1200L, Milestone.POD_READY, 3000L)));
    Timeline late =
        new Timeline(
            Map.of(
                Milestone.SUBMITTED,
                1010L,
                Milestone.WORKLOAD_CREATED,
                1050L,
                Milestone.WORKLOAD_UNPACKED,
                1150L),
            Map.of("b", Map.of(Milestone.POD_CREATED, 1250L, Milestone.POD_READY, 3500L)));
    Map<Stage, Double> s =
        Timeline.criticalPath(java.util.List.of(early, late), Milestone.POD_READY);
    assertThat(s.get(Stage.S1))
        .as("its own 40 ms plus 10 ms behind the first create")
        .isCloseTo(0.05, within(1e-9));
    assertThat(s.values().stream().mapToDouble(Double::doubleValue).sum())
        .isCloseTo(2.5, within(1e-9));
    assertThat(
            Timeline.criticalPath(
                java.util.List.of(new Timeline(WORKLOAD, Map.of())), Milestone.POD_READY))
        .isEmpty();
  }

  @Test
  void aStageLevelMeasurementIsAModelInputThatKeepsItsStages() {
    Map<Stage, Double> stages = Map.of(Stage.S1, 0.04, Stage.S3, 0.2, Stage.S6, 0.5);
    Breakdown b = Breakdown.atStageLevel(stages);
    assertThat(b.byStage()).isEqualTo(stages);
    assertThat(b.total()).isCloseTo(0.74, within(1e-9));
  }

  @Test
  void s5AndS6SeenInOneStatusUpdateAreComparedAsS6() {
    Map<Stage, Double> seen = Map.of(Stage.S4, 0.1, Stage.S5, 8.0, Stage.S6, 0.0);
    assertThat(Timeline.s5AndS6Merged(seen)).isTrue();
    assertThat(Timeline.foldS5IntoS6(seen))
        .containsOnly(Map.entry(Stage.S4, 0.1), Map.entry(Stage.S6, 8.0));
    assertThat(Timeline.s5AndS6Merged(Map.of(Stage.S5, 1.0, Stage.S6, 0.2))).isFalse();
  }

  @Test
  void aNamespaceCreatedFirstSplitsS1AndTheStagesStillAddUp() {
    Map<Milestone, Long> isolato = new java.util.EnumMap<>(WORKLOAD);
    isolato.put(Milestone.SUBMITTED, 900L); // the API call
    isolato.put(Milestone.NAMESPACE_CREATED, 1010L); // Isolato's reconcile wrote the namespace
    Timeline t =
        new Timeline(
            isolato, Map.of("p", Map.of(Milestone.POD_CREATED, 1200L, Milestone.POD_READY, 1500L)));
    assertThat(t.namespaceSplit()).contains(new Timeline.NamespaceSplit(0.11, 0.03));
    Map<Stage, Double> s = t.stageSeconds(Milestone.POD_READY);
    assertThat(s.get(Stage.S1)).isCloseTo(0.14, within(1e-9));
    assertThat(s.values().stream().mapToDouble(Double::doubleValue).sum())
        .isCloseTo(t.totalSeconds(Milestone.POD_READY).orElseThrow(), within(1e-9));
    assertThat(new Timeline(WORKLOAD, Map.of()).namespaceSplit()).isEmpty();
    assertThat(
            Timeline.slowest(
                java.util.List.of(t, new Timeline(WORKLOAD, Map.of())), Milestone.POD_READY))
        .contains(t);
  }
}
