package dev.isolato.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.isolato.pipeline.Parameter.Cluster;
import dev.isolato.pipeline.TuningStep.Cpu;
import dev.isolato.pipeline.TuningStep.Decision;
import dev.isolato.pipeline.TuningStep.Evidence;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TuningStepTest {

  static final Rules RULES = Rules.kubernetes134();
  static final WorkloadShape HUNDRED_PODS = new WorkloadShape(1, 100, 1);
  static final Hardware LOCALKUBE = new Hardware(1, 2, 2);
  static final Breakdown SINGLE =
      Breakdown.of(
          Map.of(
              Step.S1_WRITE,
              0.02,
              Step.S2_READ,
              0.02,
              Step.S3_CREATE_POD_OBJECT,
              0.005,
              Step.S4_SCHEDULE,
              0.005,
              Step.S5_SANDBOX,
              0.3,
              Step.S6_START_CONTAINER,
              0.1));
  static final Breakdown PREDICTED = PipelineModel.predict(SINGLE, HUNDRED_PODS, LOCALKUBE);

  /** Stage 3 takes most of the time: the controller manager's 20 QPS for 100 pods. */
  static final Map<Stage, Double> MEASURED =
      Map.of(
          Stage.S1, 0.05, Stage.S2, 0.05, Stage.S3, 5.0, Stage.S4, 0.3, Stage.S5, 0.6, Stage.S6,
          0.3);

  @Test
  void appliesTheMostLimitingApplicableRuleAndReportsTheRest() {
    TuningStep s = decideWith(Optional.empty());
    assertThat(s.decision()).isEqualTo(Decision.APPLY);
    assertThat(s.bottleneck().orElseThrow().stage()).isEqualTo(Stage.S3);
    assertThat(s.recommendation().orElseThrow().parameter().id())
        .isEqualTo("controller-manager.kube-api-qps");
    assertThat(s.reported())
        .extracting(r -> r.parameter().id())
        .containsExactly("controller-manager.SlowStartInitialBatchSize");
  }

  /** The S3-bound run of {@link #MEASURED}, with the planes at 50 / 40 %, given a CPU floor. */
  static TuningStep decideWith(Optional<CpuFloor> floor) {
    return decideWith(Evidence.of(floor), Cluster.LOCALKUBE);
  }

  static TuningStep decideWith(Evidence evidence, Cluster cluster) {
    return decideFor(MEASURED, HUNDRED_PODS, Map.of(), evidence, cluster);
  }

  /** {@link #MEASURED} with {@code c}'s client having waited {@code seconds} for its bucket. */
  private static Evidence waited(Stage.Component c, double seconds) {
    return new Evidence(Optional.empty(), Map.of(c, seconds));
  }

  @Test
  void aTokenBucketItsClientHardlyWaitedForIsNotProposed() {
    // 0.2 s of 6.3: raising the controller manager's QPS or burst can gain 3 % at most
    TuningStep s = decideWith(waited(Stage.Component.CONTROLLER_MANAGER, 0.2), Cluster.LOCALKUBE);
    assertThat(s.decision()).isEqualTo(Decision.STOP_NO_RULE);
    assertThat(s.reported())
        .extracting(r -> r.parameter().id())
        .containsExactly("controller-manager.SlowStartInitialBatchSize");
  }

  @Test
  void aTokenBucketsGainIsCappedByItsClientsWait() {
    // 1.26 s of 6.3 waited: at most 20 % less, though the stages predict more
    TuningStep s = decideWith(waited(Stage.Component.CONTROLLER_MANAGER, 1.26), Cluster.LOCALKUBE);
    assertThat(s.recommendation().orElseThrow().parameter().id())
        .isEqualTo("controller-manager.kube-api-qps");
    assertThat(s.recommendation().orElseThrow().predictedGain()).isCloseTo(0.2, within(1e-9));
    assertThat(decideWith(Optional.empty()).recommendation().orElseThrow().predictedGain())
        .isGreaterThan(0.2);
  }

  @Test
  void anotherClientsWaitSaysNothingOfThisBucket() {
    TuningStep s = decideWith(waited(Stage.Component.SCHEDULER, 0), Cluster.LOCALKUBE);
    assertThat(s.recommendation().orElseThrow().parameter().id())
        .isEqualTo("controller-manager.kube-api-qps");
  }

  /**
   * 1 × 1600 pods, S3-bound like {@link #MEASURED}, with the controller manager's bucket and sync
   * workers already raised: the API server's mutating in-flight limit is the rule left in S3.
   */
  private static TuningStep inFlightBound(Evidence evidence) {
    return decideFor(
        MEASURED, new WorkloadShape(1, 1600, 1), controllerManagerBucketAt(1600), evidence);
  }

  private static Map<String, Double> controllerManagerBucketAt(double qpsAndBurst) {
    return Map.of(
        "controller-manager.kube-api-qps",
        qpsAndBurst,
        "controller-manager.kube-api-burst",
        qpsAndBurst);
  }

  /** {@code measured} of {@code shape} with the planes at 50 / 40 %, on localkube. */
  private static TuningStep decideFor(
      Map<Stage, Double> measured,
      WorkloadShape shape,
      Map<String, Double> current,
      Evidence evidence) {
    return decideFor(measured, shape, current, evidence, Cluster.LOCALKUBE);
  }

  /** {@code measured} of {@code shape} with the planes at 50 / 40 %, on {@code cluster}. */
  private static TuningStep decideFor(
      Map<Stage, Double> measured,
      WorkloadShape shape,
      Map<String, Double> current,
      Evidence evidence,
      Cluster cluster) {
    return TuningStep.decide(
        1,
        measured,
        PipelineModel.predict(SINGLE, shape, LOCALKUBE),
        new Cpu(0.5, 0.4),
        shape,
        LOCALKUBE,
        current,
        cluster,
        RULES,
        evidence);
  }

  /**
   * {@link #MEASURED} for 10 Deployments × 10 pods, S3-bound, with the components' timings of S3's
   * steps: the ReplicaSets' wait for a sync worker (T_cpo) and the pod creates with the controller
   * manager's bucket wait (T_w).
   */
  private static TuningStep s3Split(double createPodObject, double write) {
    return decideFor(
        MEASURED,
        new WorkloadShape(10, 10, 1),
        Map.of(),
        new Evidence(
            Optional.empty(),
            Map.of(),
            Map.of(Step.S3_CREATE_POD_OBJECT, createPodObject, Step.S3_WRITE, write)));
  }

  @Test
  void theRulesOfTheStepWithTheLargestGapComeFirst() {
    // the sync workers' queue took most of S3: their count (5 for 10 ReplicaSets) before the
    // bucket, though the bucket (100 pods at 20 QPS) is the more limiting rule by rounds
    TuningStep queued = s3Split(40, 2);
    assertThat(queued.bottleneckStep().orElseThrow().step()).contains(Step.S3_CREATE_POD_OBJECT);
    assertThat(queued.bottleneckStep().orElseThrow().measuredSeconds())
        .isCloseTo(5.0 * 40 / 42, within(1e-9));
    assertThat(queued.recommendation().orElseThrow().parameter().id())
        .isEqualTo("controller-manager.concurrent-replicaset-syncs");
    TuningStep throttled = s3Split(2, 40);
    assertThat(throttled.bottleneckStep().orElseThrow().step()).contains(Step.S3_WRITE);
    assertThat(throttled.recommendation().orElseThrow().parameter().id())
        .isEqualTo("controller-manager.kube-api-qps");
    // no step timed: the stage's rules by rounds, no step named
    TuningStep stageOnly = s3Split(0, 0);
    assertThat(stageOnly.bottleneckStep()).isEmpty();
    assertThat(stageOnly.recommendation().orElseThrow().parameter().id())
        .isEqualTo("controller-manager.kube-api-qps");
  }

  @Test
  void anInFlightLimitWhoseQueuesHardlyWaitedIsNotProposed() {
    assertThat(inFlightBound(Evidence.none()).recommendation().orElseThrow().parameter().id())
        .isEqualTo("apiserver.max-mutating-requests-inflight");
    // 0.2 s of 6.3 in the API server's priority and fairness queues: at most 3 % less
    TuningStep s = inFlightBound(waited(Stage.Component.APISERVER, 0.2));
    assertThat(s.decision()).isEqualTo(Decision.STOP_NO_RULE);
    assertThat(s.reported())
        .extracting(r -> r.parameter().id())
        .doesNotContain("apiserver.max-mutating-requests-inflight");
  }

  @Test
  void anInFlightLimitsGainIsCappedByItsQueuesWait() {
    TuningStep s = inFlightBound(waited(Stage.Component.APISERVER, 0.63));
    assertThat(s.recommendation().orElseThrow().parameter().id())
        .isEqualTo("apiserver.max-mutating-requests-inflight");
    assertThat(s.recommendation().orElseThrow().predictedGain()).isCloseTo(0.1, within(1e-9));
    // a client's bucket wait says nothing of the server's seats
    assertThat(
            inFlightBound(waited(Stage.Component.CONTROLLER_MANAGER, 0))
                .recommendation()
                .orElseThrow()
                .predictedGain())
        .isGreaterThan(0.1);
  }

  /**
   * {@link #MEASURED} with S4 at {@code s4} s, the controller manager's bucket already raised past
   * the 100 pods: no rule of the primary bottleneck S3 may be applied.
   */
  private static TuningStep s3Exhausted(double s4) {
    Map<Stage, Double> measured = new java.util.EnumMap<>(MEASURED);
    measured.put(Stage.S4, s4);
    return decideFor(measured, HUNDRED_PODS, controllerManagerBucketAt(100), Evidence.none());
  }

  @Test
  void withoutAnApplicableRuleForThePrimaryBottleneckTheNextStageIsTuned() {
    // KWOK, 2026-11-26 16:10: S6 (kwok) first, no rule for it; S4 next, the scheduler's QPS
    TuningStep s = s3Exhausted(2.0);
    assertThat(s.decision()).isEqualTo(Decision.APPLY);
    assertThat(s.bottleneck().orElseThrow().stage()).isEqualTo(Stage.S3);
    Recommendation r = s.recommendation().orElseThrow();
    assertThat(r.parameter().id()).isEqualTo("scheduler.kube-api-qps");
    assertThat(r.bottleneck().stage()).isEqualTo(Stage.S4);
    assertThat(r.predictedGain()).isEqualTo(r.bottleneck().potentialGain());
    // the primary's rules for the admin are still reported
    assertThat(s.reported())
        .extracting(x -> x.parameter().id())
        .contains("controller-manager.SlowStartInitialBatchSize");
  }

  @Test
  void aNextStageThatTookNoLongerThanPredictedOrGainsTooLittleIsNotTuned() {
    assertThat(s3Exhausted(0.3).decision()).isEqualTo(Decision.STOP_NO_RULE);
    assertThat(s3Exhausted(0.3).recommendation()).isEmpty();
  }

  @Test
  void noRecommendationIsPredictedToGainMoreThanTheCpuFloorLeaves() {
    // its CPU work needing 85 % of its time on these cores: the QPS change can gain 15 % at most;
    // needing 97 %, no change gains 5 %
    TuningStep capped = decideWith(CpuFloor.of(10, 0.85, 0, 2));
    assertThat(capped.decision()).isEqualTo(Decision.APPLY);
    assertThat(capped.recommendation().orElseThrow().predictedGain()).isCloseTo(0.15, within(1e-9));
    TuningStep bound = decideWith(CpuFloor.of(10, 0.97, 0, 2));
    assertThat(bound.decision()).isEqualTo(Decision.STOP_CPU_BOUND);
    assertThat(bound.recommendation()).isEmpty();
    // without a floor the stages alone predict more
    assertThat(decideWith(Optional.empty()).recommendation().orElseThrow().predictedGain())
        .isGreaterThan(0.15);
  }

  @Test
  void stopsWhenCpuBound_section63() {
    // Run 3 of Fig. 8: control plane at 100 %, workers at 90 %: the user stops.
    TuningStep s =
        TuningStep.decide(
            3,
            MEASURED,
            PREDICTED,
            new Cpu(1.0, 0.9),
            HUNDRED_PODS,
            LOCALKUBE,
            Map.of(),
            Cluster.LOCALKUBE,
            RULES);
    assertThat(s.decision()).isEqualTo(Decision.STOP_CPU_BOUND);
    assertThat(s.recommendation()).isEmpty();
  }

  /** The 100-pod shape on single-node localkube: S5+S6 (the node) is the bottleneck. */
  static final Map<Stage, Double> NODE_BOUND =
      Map.of(Stage.S1, 0.05, Stage.S2, 0.05, Stage.S3, 0.7, Stage.S4, 0.3, Stage.S6, 20.0);

  private static TuningStep decide(Map<Stage, Double> measured, Cpu cpu) {
    return TuningStep.decide(
        1, measured, PREDICTED, cpu, HUNDRED_PODS, LOCALKUBE, Map.of(), Cluster.LOCALKUBE, RULES);
  }

  @Test
  void cpuBoundIsTheBottleneckStagesOwnPlaneNotTheOtherOne() {
    assertThat(decide(NODE_BOUND, new Cpu(0.1, 0.85)).decision())
        .isEqualTo(Decision.STOP_CPU_BOUND);
    // the control plane saturated while the node's stage is the bottleneck: not the node's CPU
    assertThat(decide(NODE_BOUND, new Cpu(0.95, 0.3)).decision())
        .isNotEqualTo(Decision.STOP_CPU_BOUND);
    // S3 (control plane) is the bottleneck while the node is busy: the rule may still apply
    assertThat(decide(MEASURED, new Cpu(0.2, 0.9)).decision()).isEqualTo(Decision.APPLY);
  }

  @Test
  void withSharedCoresAPlaneHasOnlyWhatTheOtherLeft() {
    // localkube, 13:14 UTC run's shape: the node used 70 %, the control plane 15 %: 70 ≥ 0.8 × 85
    assertThat(new Cpu(0.15, 0.70, true).bound(Stage.S5)).isTrue();
    assertThat(new Cpu(0.15, 0.70, false).bound(Stage.S5)).isFalse();
    assertThat(new Cpu(0.15, 0.60, true).bound(Stage.S5)).isFalse();
    // the control plane rate-limited (S3) while the node works: 15 % < 0.8 × 25 %
    assertThat(new Cpu(0.15, 0.75, true).bound(Stage.S3)).isFalse();
    // nothing ran: never bound, even with nothing left
    assertThat(new Cpu(0, 1.0, true).bound(Stage.S3)).isFalse();
  }

  @Test
  void theClientsCpuCountsWithTheControlPlaneForS1AndAsOtherWorkElsewhere() {
    // tenants-bench 2026-11-24 01:01: control plane 29 %, node 25 %, Isolato's controller ~40 %
    Cpu onboarding = new Cpu(0.29, 0.25, 0.40, true);
    // S1 (Isolato creates the objects): 69 % of the 75 % the node left ≥ 0.8
    assertThat(onboarding.bound(Stage.S1)).isTrue();
    // without the client the same run's S1 looked far from bound: 29 % < 0.8 × 75 %
    assertThat(new Cpu(0.29, 0.25, true).bound(Stage.S1)).isFalse();
    // S3 is the controller manager's alone; the client's 40 % is what it did not have: 29 % ≥ 0.8 ×
    // 35 %
    assertThat(onboarding.bound(Stage.S3)).isTrue();
    assertThat(new Cpu(0.29, 0.25, 0.10, true).bound(Stage.S3)).isFalse();
    // on machines of their own the client never takes from a plane
    assertThat(new Cpu(0.29, 0.25, 0.40, false).bound(Stage.S1)).isFalse();
    assertThatThrownBy(() -> new Cpu(0.1, 0.1, -0.1, true))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void otherWorkOnTheHostIsNotCpuBound() {
    // KWOK run 1 (benchmark log): host 100 % from other work, control plane 31 %, node 2 %;
    // the bottleneck S3 is the controller manager's QPS, and raising it gained 57 %
    assertThat(decide(MEASURED, new Cpu(0.31, 0.02, true)).decision()).isEqualTo(Decision.APPLY);
  }

  @Test
  void stopsBelowFivePercentGain() {
    // Measured equals the prediction up to 1 %: nothing left to gain.
    Map<Stage, Double> m = new java.util.EnumMap<>(Stage.class);
    for (Stage st : Stage.values()) {
      if (PREDICTED.stage(st) > 0) {
        m.put(st, PREDICTED.stage(st) * (st == Stage.S3 ? 1.01 : 1));
      }
    }
    TuningStep s =
        TuningStep.decide(
            2,
            m,
            PREDICTED,
            new Cpu(0.3, 0.3),
            HUNDRED_PODS,
            LOCALKUBE,
            Map.of(),
            Cluster.LOCALKUBE,
            RULES);
    assertThat(s.decision()).isEqualTo(Decision.STOP_SMALL_GAIN);
  }

  @Test
  void onASharedClusterOnlyReports() {
    TuningStep s = decideWith(Evidence.none(), Cluster.SHARED);
    assertThat(s.decision()).isEqualTo(Decision.STOP_NO_RULE);
    assertThat(s.reported()).hasSize(3);
  }

  @Test
  void figure8Reductions_section63() {
    assertThat(TuningStep.reduction(80.9, 16.9))
        .isCloseTo(0.791, within(0.0005)); // "a 79.1% decrease"
    assertThat(-TuningStep.reduction(11.9, 16.9))
        .isCloseTo(0.42, within(0.005)); // "42% above the best case"
    assertThatThrownBy(() -> new Cpu(Double.NaN, 0)).hasMessageContaining("CPU");
  }
}
