package dev.isolato.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.it.RealApiServer;
import dev.isolato.pipeline.Hardware;
import dev.isolato.pipeline.Stage;
import dev.isolato.pipeline.run.CpuMeter;
import dev.isolato.tenancy.PoolObjects;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The path tracer's commands on a real kube-apiserver: this test plays Isolato and the controllers
 * (namespace, Deployment, ReplicaSet, a Ready pod) between {@code start} and {@code stop}, as
 * tenants-bench.sh drives Isolato between them.
 */
class PathTraceMainIT {
  static final Map<String, String> ISOLATO = Map.of(PoolObjects.MANAGED_BY, PoolObjects.MANAGER);
  static KubernetesClient kube;

  @BeforeAll
  static void client() {
    kube = RealApiServer.client();
  }

  @AfterAll
  static void close() {
    kube.close();
  }

  @Test
  void aPathIsTracedFromStartToStopAndALaterOneGetsTheModelsBestCaseFromIt() throws Exception {
    PathTraceMain m =
        new PathTraceMain(
            kube,
            CpuMeter.unavailable(),
            new Hardware(1, 2, 2),
            Map.of(),
            Duration.ofSeconds(20),
            0);
    assertThat(m.command(new String[] {"start", "single"})).isEqualTo("ready single");
    pool("isolato-t-it-1");
    PathTraceMain.TracedPath single = m.stop("single", 1, 1, null);
    assertThat(single.readyPods()).isEqualTo(1);
    assertThat(single.stages()).containsKeys(Stage.S1, Stage.S2, Stage.S3, Stage.S7);
    assertThat(single.s1Split()).isNotNull();
    assertThat(single.s1Split().toNamespace() + single.s1Split().toWorkload())
        .isCloseTo(single.stages().get(Stage.S1), org.assertj.core.api.Assertions.within(1e-9));
    assertThat(single.predictedSeconds()).as("no input, no best case").isNull();

    m.command(new String[] {"start", "two"});
    pool("isolato-t-it-2");
    pool("isolato-t-it-3");
    String line = m.command(new String[] {"stop", "two", "2", "1", "single"});
    assertThat(line).startsWith("[trace] two: 2 × 1 pods, 2 Ready").contains("best case");
    assertThat(m.command(new String[] {"stop", "x", "1", "1"})).startsWith("error");
    assertThat(m.command(new String[] {"bogus"})).startsWith("error unknown command");
  }

  @Test
  void aPoolThatExistedBeforeStartCountsOnlyWithItsNewPods() throws Exception {
    PathTraceMain m =
        new PathTraceMain(
            kube,
            CpuMeter.unavailable(),
            new Hardware(1, 2, 2),
            Map.of(),
            Duration.ofSeconds(2),
            0);
    pool("isolato-c-it-old");
    m.command(new String[] {"start", "nothing"});
    PathTraceMain.TracedPath p = m.stop("nothing", 1, 1, null);
    assertThat(p.readyPods()).as("the old pool's pod is the baseline").isZero();
    assertThat(p.stages()).isEmpty();
    assertThat(p.decision()).isNull();
  }

  /** As Isolato and the controllers would: namespace, Deployment, ReplicaSet, one Ready pod. */
  private static void pool(String ns) {
    kube.resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(ns)
                .withLabels(ISOLATO)
                .endMetadata()
                .build())
        .create();
    RealApiServer.namespace(kube, ns);
    var template = RealApiServer.podTemplate(ISOLATO);
    Deployment d =
        kube.resource(
                new DeploymentBuilder()
                    .withNewMetadata()
                    .withName("saas-bench")
                    .withNamespace(ns)
                    .withLabels(ISOLATO)
                    .endMetadata()
                    .withNewSpec()
                    .withReplicas(1)
                    .withNewSelector()
                    .withMatchLabels(ISOLATO)
                    .endSelector()
                    .withTemplate(template)
                    .endSpec()
                    .build())
            .create();
    ReplicaSet rs =
        kube.resource(
                new ReplicaSetBuilder()
                    .withNewMetadata()
                    .withName("saas-bench-1")
                    .withNamespace(ns)
                    .withLabels(ISOLATO)
                    .withOwnerReferences(owner(d.getKind(), d.getMetadata()))
                    .endMetadata()
                    .withNewSpec()
                    .withReplicas(1)
                    .withSelector(d.getSpec().getSelector())
                    .withTemplate(template)
                    .endSpec()
                    .build())
            .create();
    kube.resource(
            new PodBuilder()
                .withNewMetadata()
                .withName("saas-bench-1-a")
                .withNamespace(ns)
                .withLabels(ISOLATO)
                .withOwnerReferences(owner(rs.getKind(), rs.getMetadata()))
                .endMetadata()
                .withSpec(template.getSpec())
                .build())
        .create();
    kube.pods()
        .inNamespace(ns)
        .withName("saas-bench-1-a")
        .editStatus(
            p ->
                new PodBuilder(p)
                    .editOrNewStatus()
                    .addNewCondition()
                    .withType("Ready")
                    .withStatus("True")
                    .endCondition()
                    .endStatus()
                    .build());
  }

  private static io.fabric8.kubernetes.api.model.OwnerReference owner(
      String kind, io.fabric8.kubernetes.api.model.ObjectMeta m) {
    return new OwnerReferenceBuilder()
        .withApiVersion("apps/v1")
        .withKind(kind)
        .withName(m.getName())
        .withUid(m.getUid())
        .withController(true)
        .build();
  }
}
