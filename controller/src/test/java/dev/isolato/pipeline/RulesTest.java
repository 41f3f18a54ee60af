package dev.isolato.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.pipeline.Parameter.Cluster;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RulesTest {

  final Rules rules = Rules.kubernetes134();

  static Bottleneck atStep(Step step, double gain) {
    return new Bottleneck(step.stage(), Optional.of(step), 1, 0, 0.9, 0.1, 0.8, gain);
  }

  static Bottleneck atStage(Stage stage, double gain) {
    return new Bottleneck(stage, Optional.empty(), 1, 0, 0.9, 0.1, 0.8, gain);
  }

  static List<String> ids(List<Recommendation> rs) {
    return rs.stream().map(r -> r.parameter().id()).toList();
  }

  @Test
  void figure8_slowStartBatchTo1600_reportedNotApplied_section63() {
    // Section 6.3: bottleneck T_cpo, 1600 pods in one workload on 16 nodes; Columbo recommends
    // SlowStartInitialBatchSize 1 → 1600 with a predicted gain of 96 %.
    WorkloadShape w = new WorkloadShape(1, 1600, 1);
    Hardware h = new Hardware(16, 8, 8);
    List<Recommendation> c =
        rules.candidates(atStep(Step.S3_CREATE_POD_OBJECT, 0.96), w, h, Map.of());
    assertThat(ids(c))
        .containsExactly(
            "controller-manager.SlowStartInitialBatchSize", "controller-manager.BurstReplicas");
    Recommendation first = c.get(0);
    assertThat(first.currentValue()).isEqualTo(1);
    assertThat(first.newValue()).isEqualTo(1600);
    assertThat(first.rounds()).isEqualTo(11); // batches 1, 2, 4, …, 1024 (and the rest)
    assertThat(first.predictedGain()).isEqualTo(0.96);
    // Both are constants in the source: nothing Isolato can apply, only report.
    assertThat(
            rules.recommend(
                atStep(Step.S3_CREATE_POD_OBJECT, 0.96), w, h, Map.of(), Cluster.LOCALKUBE))
        .isEmpty();
  }

  @Test
  void hundredPodsStageThree_onLocalkubeRaisesTheControllerManagersQps() {
    WorkloadShape w = new WorkloadShape(1, 100, 1);
    Hardware h = new Hardware(1, 2, 2);
    List<Recommendation> c = rules.candidates(atStage(Stage.S3, 0.5), w, h, Map.of());
    assertThat(ids(c))
        .containsExactly(
            "controller-manager.SlowStartInitialBatchSize", // ⌈log2(101)⌉ = 7
            "controller-manager.kube-api-qps", // 100/20 = 5
            "controller-manager.kube-api-burst"); // ⌈100/30⌉ = 4; BurstReplicas 500 and inflight
    // 200 hold
    Recommendation r =
        rules.recommend(atStage(Stage.S3, 0.5), w, h, Map.of(), Cluster.LOCALKUBE).orElseThrow();
    assertThat(r.parameter().id()).isEqualTo("controller-manager.kube-api-qps");
    assertThat(r.parameter().apply().how()).isEqualTo("controller-manager.kube-api-qps");
    assertThat(r.newValue()).isEqualTo(100);
    assertThat(r.predictedGain()).isEqualTo(0.5);
    // On a shared cluster the controller manager is the admin's: report only.
    assertThat(rules.recommend(atStage(Stage.S3, 0.5), w, h, Map.of(), Cluster.SHARED)).isEmpty();
  }

  @Test
  void anAppliedValueNoLongerViolates() {
    WorkloadShape w = new WorkloadShape(1, 100, 1);
    Hardware h = new Hardware(1, 2, 2);
    List<Recommendation> c =
        rules.candidates(
            atStage(Stage.S3, 0.5), w, h, Map.of("controller-manager.kube-api-qps", 100.0));
    assertThat(ids(c))
        .doesNotContain("controller-manager.kube-api-qps")
        .contains("controller-manager.kube-api-burst");
  }

  @Test
  void kubeletWritesCountContainersPerNode_section66() {
    // 100 single-container pods on one node: kubeAPIQPS 50 < 100 (1.26's default 5 was the
    // Section 6.6 bottleneck); on 4 nodes each kubelet has 25 and nothing is violated.
    WorkloadShape w = new WorkloadShape(1, 100, 1);
    assertThat(
            ids(rules.candidates(atStep(Step.S6_WRITE, 0.3), w, new Hardware(1, 8, 8), Map.of())))
        .containsExactlyInAnyOrder("kubelet.kubeAPIQPS", "kubelet.eventRecordQPS");
    assertThat(rules.candidates(atStep(Step.S6_WRITE, 0.3), w, new Hardware(4, 8, 8), Map.of()))
        .isEmpty();
  }

  @Test
  void aClassesPoolsAreOneReconcileSoItsPoolAppliersAreRaisedNotItsReconcileThreads() {
    // 50 dedicated tenants onboarded at once: 50 pools of one class, applied in one reconcile
    // (measured: 16 reconcile threads instead of 4 changed nothing), 8 at a time by default.
    // Isolato's settings apply on shared clusters.
    Parameter threads = ParameterCatalog.byId("isolato.reconcile-threads").orElseThrow();
    assertThat(threads.apply().appliesOn(Cluster.SHARED)).isTrue();
    Optional<Recommendation> r =
        rules.recommend(
            atStage(Stage.S1, 0.4),
            new WorkloadShape(50, 1, 1),
            new Hardware(1, 2, 2),
            Map.of(),
            Cluster.SHARED);
    assertThat(r).map(x -> x.parameter().id()).contains("isolato.pool-apply-threads");
    assertThat(r.orElseThrow().newValue()).isEqualTo(50);
    // raised to what the shape needs, nothing is left to recommend
    assertThat(
            rules.recommend(
                atStage(Stage.S1, 0.4),
                new WorkloadShape(50, 1, 1),
                new Hardware(1, 2, 2),
                Map.of("isolato.pool-apply-threads", 50.0),
                Cluster.SHARED))
        .isEmpty();
  }

  @Test
  void reportedOnlySettingsNeverBecomeCandidates() {
    WorkloadShape w = new WorkloadShape(1, 5000, 1);
    Hardware h = new Hardware(200, 8, 8);
    assertThat(ids(rules.candidates(atStage(Stage.S4, 0.5), w, h, Map.of())))
        .doesNotContain("scheduler.percentageOfNodesToScore")
        .contains("scheduler.parallelism");
  }
}
