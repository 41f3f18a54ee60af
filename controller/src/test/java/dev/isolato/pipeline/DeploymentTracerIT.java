package dev.isolato.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.isolato.it.RealApiServer;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The tracer on a real kube-apiserver + etcd. There is no controller manager, scheduler or kubelet,
 * so this test writes what they would (ReplicaSet, pods, binding, pod status, EndpointSlice). The
 * tracer's clock is a counter the test sets before each write, so each milestone's stamp says which
 * write the tracer attributed it to.
 */
class DeploymentTracerIT {
  static final String NS = "pipeline-it";
  static final Map<String, String> LABELS = Map.of("app", "web");
  static KubernetesClient kube;

  final AtomicLong clock = new AtomicLong();

  @BeforeAll
  static void client() {
    kube = RealApiServer.client();
    RealApiServer.namespace(kube, NS);
  }

  @AfterAll
  static void close() {
    kube.close();
  }

  @Test
  void stampsEveryStageOfADeploymentAndIgnoresStrangers() {
    try (DeploymentTracer tracer =
        new DeploymentTracer(kube, NS, "web", "web", clock::get).start()) {
      at(1000, tracer::submitted);
      Deployment d = at(1040, () -> deployment(NS, Map.of(), 2));
      awaitWorkload(tracer, Milestone.WORKLOAD_CREATED);

      // As the Deployment controller would: a ReplicaSet owned by the Deployment.
      ReplicaSet rs = at(1100, () -> replicaSet(d, "web-abc", Map.of(), 2));
      awaitWorkload(tracer, Milestone.WORKLOAD_UNPACKED);

      // As the ReplicaSet controller would; plus a pod nobody owns, which the tracer must ignore.
      // Each write is awaited before the clock moves on, so its stamp is the clock of that write.
      seen(tracer, 1200, () -> pod("web-abc-1", owner(rs)), "web-abc-1", Milestone.POD_CREATED);
      seen(tracer, 1300, () -> pod("web-abc-2", owner(rs)), "web-abc-2", Milestone.POD_CREATED);
      at(1310, () -> pod("stranger", null));

      // As the scheduler would: the binding subresource sets spec.nodeName.
      seen(tracer, 1250, () -> bind("web-abc-1"), "web-abc-1", Milestone.POD_BOUND);
      seen(tracer, 1400, () -> bind("web-abc-2"), "web-abc-2", Milestone.POD_BOUND);

      // As the kubelet would: sandbox (IP, PodReadyToStartContainers), containers running, Ready.
      seen(
          tracer,
          1500,
          () -> status("web-abc-1", "PodReadyToStartContainers", false),
          "web-abc-1",
          Milestone.SANDBOX_READY);
      seen(
          tracer,
          2100,
          () -> status("web-abc-2", "PodReadyToStartContainers", false),
          "web-abc-2",
          Milestone.SANDBOX_READY);
      seen(
          tracer,
          1700,
          () -> status("web-abc-1", "PodReadyToStartContainers", true),
          "web-abc-1",
          Milestone.CONTAINERS_STARTED);
      seen(
          tracer,
          2600,
          () -> status("web-abc-2", "PodReadyToStartContainers", true),
          "web-abc-2",
          Milestone.CONTAINERS_STARTED);
      seen(
          tracer, 3000, () -> status("web-abc-1", "Ready", true), "web-abc-1", Milestone.POD_READY);
      seen(
          tracer, 3200, () -> status("web-abc-2", "Ready", true), "web-abc-2", Milestone.POD_READY);

      // As the EndpointSlice controller would.
      at(
          3500,
          () ->
              kube.resource(
                      new EndpointSliceBuilder()
                          .withNewMetadata()
                          .withName("web-x")
                          .withNamespace(NS)
                          .withLabels(Map.of("kubernetes.io/service-name", "web"))
                          .endMetadata()
                          .withAddressType("IPv4")
                          .addNewEndpoint()
                          .withAddresses("10.244.0.11")
                          .withNewConditions()
                          .withReady(true)
                          .endConditions()
                          .withNewTargetRef()
                          .withKind("Pod")
                          .withName("web-abc-1")
                          .withNamespace(NS)
                          .endTargetRef()
                          .endEndpoint()
                          .addNewEndpoint()
                          .withAddresses("10.244.0.12")
                          .withNewConditions()
                          .withReady(true)
                          .endConditions()
                          .withNewTargetRef()
                          .withKind("Pod")
                          .withName("web-abc-2")
                          .withNamespace(NS)
                          .endTargetRef()
                          .endEndpoint()
                          .build())
                  .create());
      awaitPods(tracer, Milestone.POD_SERVED, 2);

      Timeline t = tracer.timeline();
      assertThat(t.pods()).containsOnlyKeys("web-abc-1", "web-abc-2");
      assertThat(t.pods().get("web-abc-1"))
          .containsEntry(Milestone.POD_CREATED, 1200L)
          .containsEntry(Milestone.POD_BOUND, 1250L)
          .containsEntry(Milestone.SANDBOX_READY, 1500L)
          .containsEntry(Milestone.CONTAINERS_STARTED, 1700L)
          .containsEntry(Milestone.POD_READY, 3000L)
          .containsEntry(Milestone.POD_SERVED, 3500L);
      assertThat(t.lastPod(Milestone.POD_SERVED)).isPresent();
      assertThat(t.lastPod(Milestone.POD_READY)).contains("web-abc-2");
      assertThat(t.stageSeconds(Milestone.POD_READY))
          .containsEntry(Stage.S1, 0.04)
          .containsEntry(Stage.S2, 0.06)
          .containsEntry(Stage.S3, 0.2)
          .containsEntry(Stage.S4, 0.1)
          .containsEntry(Stage.S5, 0.7)
          .containsEntry(Stage.S6, 0.5)
          .containsEntry(Stage.S7, 0.6);
      assertThat(t.totalSeconds(Milestone.POD_READY)).contains(2.2);
    }
  }

  /**
   * Isolato's paths: pools in namespaces of their own, created by one API call, and a pool that
   * existed before the tracer started and is scaled. Only labelled objects of the traced name
   * count; of the scaled pool, only what changed: its Deployment's spec, its ReplicaSet's replicas,
   * new pods.
   */
  @Test
  void tracesLabelledPoolsInAnyNamespaceWithTheirNamespaceAndAScaleOutFromItsBaseline() {
    Map<String, String> pool = Map.of("tracer-it", "pool");
    // before the tracer: a pool of one pod, to be scaled
    labelledNamespace("pool-old", pool);
    Deployment old = deployment("pool-old", pool, 1);
    ReplicaSet oldRs = replicaSet(old, "web-old", pool, 1);
    kube.resource(podIn("pool-old", "web-old-1", owner(oldRs), pool)).create();

    try (DeploymentTracer tracer =
        DeploymentTracer.inAnyNamespace(kube, "web", pool, clock::get).start()) {
      at(1000, tracer::submitted);
      at(1010, () -> labelledNamespace("pool-a", pool));
      // stamped on arrival: the clock moves on only after the watch delivered it
      awaitNamespaces(tracer, t -> t.containsKey("pool-a"));
      at(1020, () -> labelledNamespace("stranger", Map.of()));
      Deployment a = at(1050, () -> deployment("pool-a", pool, 1));
      awaitNamespaces(
          tracer, t -> t.get("pool-a").workload().containsKey(Milestone.WORKLOAD_CREATED));
      at(1060, () -> deployment("stranger", Map.of(), 1));
      ReplicaSet aRs = at(1100, () -> replicaSet(a, "web-a", pool, 1));
      awaitNamespaces(
          tracer, t -> t.get("pool-a").workload().containsKey(Milestone.WORKLOAD_UNPACKED));
      at(1200, () -> kube.resource(podIn("pool-a", "web-a-1", owner(aRs), pool)).create());
      awaitNamespaces(tracer, t -> t.get("pool-a").pods().containsKey("web-a-1"));

      // the scale-out: spec.replicas 1 → 2, its ReplicaSet follows, one new pod
      at(
          1300,
          () ->
              kube.apps()
                  .deployments()
                  .inNamespace("pool-old")
                  .withName("web")
                  .edit(
                      d -> new DeploymentBuilder(d).editSpec().withReplicas(2).endSpec().build()));
      awaitNamespaces(tracer, t -> t.containsKey("pool-old"));
      at(
          1350,
          () ->
              kube.apps()
                  .replicaSets()
                  .inNamespace("pool-old")
                  .withName("web-old")
                  .edit(
                      r -> new ReplicaSetBuilder(r).editSpec().withReplicas(2).endSpec().build()));
      awaitNamespaces(
          tracer, t -> t.get("pool-old").workload().containsKey(Milestone.WORKLOAD_UNPACKED));
      at(1400, () -> kube.resource(podIn("pool-old", "web-old-2", owner(oldRs), pool)).create());
      awaitNamespaces(tracer, t -> t.get("pool-old").pods().containsKey("web-old-2"));

      Map<String, Timeline> t = tracer.timelines();
      assertThat(t).containsOnlyKeys("pool-a", "pool-old");
      assertThat(t.get("pool-a").workload())
          .containsEntry(Milestone.SUBMITTED, 1000L)
          .containsEntry(Milestone.NAMESPACE_CREATED, 1010L)
          .containsEntry(Milestone.WORKLOAD_CREATED, 1050L)
          .containsEntry(Milestone.WORKLOAD_UNPACKED, 1100L);
      assertThat(t.get("pool-a").namespaceSplit())
          .contains(new Timeline.NamespaceSplit(0.01, 0.04));
      assertThat(t.get("pool-a").pods().get("web-a-1")).containsEntry(Milestone.POD_CREATED, 1200L);
      assertThat(t.get("pool-old").workload())
          .doesNotContainKey(Milestone.NAMESPACE_CREATED)
          .containsEntry(Milestone.WORKLOAD_CREATED, 1300L)
          .containsEntry(Milestone.WORKLOAD_UNPACKED, 1350L);
      assertThat(t.get("pool-old").pods()).containsOnlyKeys("web-old-2");
      assertThat(t.get("pool-old").pods().get("web-old-2"))
          .containsEntry(Milestone.POD_CREATED, 1400L);
    }
  }

  private static Namespace labelledNamespace(String name, Map<String, String> labels) {
    Namespace n =
        kube.resource(
                new NamespaceBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .withLabels(labels)
                    .endMetadata()
                    .build())
            .create();
    RealApiServer.namespace(kube, name); // its default ServiceAccount, which pods need
    return n;
  }

  private static Deployment deployment(String ns, Map<String, String> labels, int replicas) {
    return kube.resource(
            new DeploymentBuilder()
                .withNewMetadata()
                .withName("web")
                .withNamespace(ns)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .withNewSelector()
                .withMatchLabels(LABELS)
                .endSelector()
                .withTemplate(template())
                .endSpec()
                .build())
        .create();
  }

  /** As the Deployment controller would: owned by {@code d}, with its selector and template. */
  private static ReplicaSet replicaSet(
      Deployment d, String name, Map<String, String> labels, int replicas) {
    return kube.resource(
            new ReplicaSetBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(d.getMetadata().getNamespace())
                .withLabels(labels)
                .withOwnerReferences(owner(d))
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .withSelector(d.getSpec().getSelector())
                .withTemplate(d.getSpec().getTemplate())
                .endSpec()
                .build())
        .create();
  }

  private static Pod podIn(
      String ns, String name, OwnerReference owner, Map<String, String> labels) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(ns)
        .withLabels(labels)
        .withOwnerReferences(owner)
        .endMetadata()
        .withSpec(template().getSpec())
        .build();
  }

  private static void awaitNamespaces(
      DeploymentTracer tracer, Predicate<Map<String, Timeline>> until) {
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> until.test(tracer.timelines()));
  }

  private <T> T at(long ms, java.util.function.Supplier<T> write) {
    clock.set(ms);
    return write.get();
  }

  private void at(long ms, Runnable write) {
    clock.set(ms);
    write.run();
  }

  private static PodTemplateSpec template() {
    return RealApiServer.podTemplate(LABELS);
  }

  private static OwnerReference owner(HasMetadata o) {
    return new OwnerReferenceBuilder()
        .withApiVersion(o.getApiVersion())
        .withKind(o.getKind())
        .withName(o.getMetadata().getName())
        .withUid(o.getMetadata().getUid())
        .withController(true)
        .build();
  }

  private static Pod pod(String name, OwnerReference owner) {
    PodBuilder b =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(NS)
            .withLabels(LABELS)
            .endMetadata()
            .withSpec(template().getSpec());
    if (owner != null) {
      b.editMetadata().withOwnerReferences(owner).endMetadata();
    }
    return kube.resource(b.build()).create();
  }

  private static void bind(String pod) {
    kube.bindings()
        .inNamespace(NS)
        .resource(
            new BindingBuilder()
                .withNewMetadata()
                .withName(pod)
                .endMetadata()
                .withNewTarget()
                .withKind("Node")
                .withName("node-a")
                .endTarget()
                .build())
        .create();
  }

  /**
   * A kubelet-like status: sandbox up with an IP; {@code running} containers; the given condition
   * True.
   */
  private static void status(String pod, String condition, boolean running) {
    kube.pods()
        .inNamespace(NS)
        .withName(pod)
        .editStatus(
            p -> {
              PodBuilder b = new PodBuilder(p);
              b.editOrNewStatus()
                  .withPodIP("10.244.0." + (pod.endsWith("1") ? 11 : 12))
                  .removeMatchingFromConditions(c -> condition.equals(c.getType()))
                  .addNewCondition()
                  .withType(condition)
                  .withStatus("True")
                  .endCondition()
                  .endStatus();
              if (running || "Ready".equals(condition)) {
                b.editStatus()
                    .withContainerStatuses()
                    .addNewContainerStatus()
                    .withName("app")
                    .withImage("isolato/saas-bench:dev")
                    .withImageID("")
                    .withReady("Ready".equals(condition))
                    .withRestartCount(0)
                    .withNewState()
                    .withNewRunning()
                    .withStartedAt("2026-01-01T00:00:00Z")
                    .endRunning()
                    .endState()
                    .endContainerStatus()
                    .endStatus();
              }
              return b.build();
            });
  }

  private void seen(DeploymentTracer tracer, long ms, Runnable write, String pod, Milestone m) {
    at(ms, write);
    awaitPod(tracer, pod, m);
  }

  private static void awaitWorkload(DeploymentTracer tracer, Milestone m) {
    awaitTimeline(tracer, t -> t.workload().containsKey(m));
  }

  private static void awaitPod(DeploymentTracer tracer, String pod, Milestone m) {
    awaitTimeline(tracer, t -> t.pods().getOrDefault(pod, Map.of()).containsKey(m));
  }

  private static void awaitPods(DeploymentTracer tracer, Milestone m, int n) {
    awaitTimeline(tracer, t -> t.podsAt(m) == n);
  }

  private static void awaitTimeline(DeploymentTracer tracer, Predicate<Timeline> until) {
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> until.test(tracer.timeline()));
  }
}
