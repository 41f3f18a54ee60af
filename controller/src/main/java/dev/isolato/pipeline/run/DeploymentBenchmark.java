package dev.isolato.pipeline.run;

import dev.isolato.pipeline.DeploymentTracer;
import dev.isolato.pipeline.Hardware;
import dev.isolato.pipeline.Milestone;
import dev.isolato.pipeline.Stage;
import dev.isolato.pipeline.Stage.Component;
import dev.isolato.pipeline.Timeline;
import dev.isolato.pipeline.WorkloadShape;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one workload shape on the cluster: J Deployments of P pause pods in a namespace of its own,
 * each traced by a {@link DeploymentTracer}, until every pod is Ready; then deletes the namespace
 * and waits until it is gone, so the next run starts from the same state. With a {@link NodeLabel}
 * the pods run only on the nodes carrying it and tolerate the NoSchedule taint of the same key and
 * value (KWOK's fake nodes, {@code localkube kwok up}), and only those nodes count as the model's
 * N.
 */
public final class DeploymentBenchmark implements PipelineBenchmark {

  /** Labels of everything a benchmark creates: Isolato's, and only ever deleted by name. */
  static final Map<String, String> LABELS =
      Map.of("app.kubernetes.io/managed-by", "isolato", "isolato.dev/pipeline-benchmark", "true");

  static final String NAMESPACE_PREFIX = "isolato-pipeline-";

  /**
   * The kubelet's image-pull settings, which no benchmark exercises (its images are on the node),
   * and {@code more}.
   */
  public static java.util.Set<String> imagePullsAnd(String... more) {
    return java.util.stream.Stream.concat(
            java.util.stream.Stream.of(
                "kubelet.registryPullQPS",
                "kubelet.registryBurst",
                "kubelet.maxParallelImagePulls"),
            java.util.Arrays.stream(more))
        .collect(java.util.stream.Collectors.toUnmodifiableSet());
  }

  /**
   * Settings this benchmark does not exercise, so no change of them can show: its pods run an image
   * already on the node (imagePullPolicy Never), nothing is pulled; it creates its Deployments
   * itself, not through Isolato's pools.
   */
  private static final java.util.Set<String> NOT_EXERCISED =
      imagePullsAnd("isolato.pool-apply-threads");

  private static final Duration DELETE_TIMEOUT = Duration.ofMinutes(3);

  private final KubernetesClient client;
  private final PipelineProperties props;
  private final CpuMeter cpu;
  private final Optional<NodeLabel> nodes;

  /**
   * A node label KEY=VALUE the benchmark pods select, with a NoSchedule taint of the same key and
   * value.
   */
  public record NodeLabel(String key, String value) {

    public static NodeLabel parse(String keyValue) {
      int eq = keyValue.indexOf('=');
      if (eq < 1 || eq == keyValue.length() - 1) {
        throw new IllegalArgumentException(
            "a node label must be KEY=VALUE, was '" + keyValue + "'");
      }
      return new NodeLabel(keyValue.substring(0, eq), keyValue.substring(eq + 1));
    }
  }

  public DeploymentBenchmark(KubernetesClient client, PipelineProperties props, CpuMeter cpu) {
    this(client, props, cpu, Optional.empty());
  }

  public DeploymentBenchmark(
      KubernetesClient client, PipelineProperties props, CpuMeter cpu, Optional<NodeLabel> nodes) {
    this.client = client;
    this.props = props;
    this.cpu = cpu;
    this.nodes = nodes;
  }

  @Override
  public CpuMeter.Usage idle() throws InterruptedException {
    return cpu.idle(IDLE_WINDOW);
  }

  @Override
  public java.util.Set<String> notExercised() {
    return nodes.isPresent() ? ON_FAKE_NODES : NOT_EXERCISED;
  }

  /** On fake nodes (KWOK) no kubelet runs, so none of its settings can show either. */
  private static final java.util.Set<String> ON_FAKE_NODES =
      java.util.stream.Stream.concat(
              NOT_EXERCISED.stream(),
              dev.isolato.pipeline.ParameterCatalog.KUBERNETES_1_34.stream()
                  .filter(p -> p.component() == Component.KUBELET)
                  .map(dev.isolato.pipeline.Parameter::id))
          .collect(java.util.stream.Collectors.toUnmodifiableSet());

  /**
   * N = Ready nodes (those with the node label when set); U_c, U_w = CPU capacity. U_c comes from
   * the properties when set, else from the largest node, except on fake nodes, whose capacity is
   * made up: then U_c is this host's cores (localkube's control plane runs here).
   */
  @Override
  public Hardware hardware() {
    return hardware(client, props, nodes);
  }

  /** {@link #hardware()} of any benchmark on this cluster. */
  public static Hardware hardware(
      KubernetesClient client, PipelineProperties props, Optional<NodeLabel> nodes) {
    NodeList all =
        nodes.isPresent()
            ? client.nodes().withLabel(nodes.get().key(), nodes.get().value()).list()
            : client.nodes().list();
    List<Node> ready =
        all.getItems().stream()
            .filter(
                n ->
                    n.getStatus() != null
                        && n.getStatus().getConditions().stream()
                            .anyMatch(
                                c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
            .toList();
    if (ready.isEmpty()) {
      throw new IllegalStateException(
          "the cluster has no Ready node"
              + nodes
                  .map(
                      l ->
                          " labelled "
                              + l.key()
                              + "="
                              + l.value()
                              + " (localkube kwok up N creates such nodes)")
                  .orElse("")
              + ": nothing can run a benchmark");
    }
    int cores =
        ready.stream()
            .mapToInt(
                n -> {
                  Quantity q = n.getStatus().getCapacity().get("cpu");
                  return q == null ? 1 : Math.max(1, q.getNumericalAmount().intValue());
                })
            .max()
            .orElse(1);
    int controlPlane = nodes.isPresent() ? Runtime.getRuntime().availableProcessors() : cores;
    return new Hardware(
        ready.size(),
        props.controlPlaneCores() > 0 ? props.controlPlaneCores() : controlPlane,
        cores);
  }

  @Override
  public Run run(WorkloadShape shape, String name) throws InterruptedException {
    String ns = NAMESPACE_PREFIX + name;
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(ns)
                .withLabels(LABELS)
                .endMetadata()
                .build())
        .create();
    List<DeploymentTracer> tracers = new ArrayList<>();
    ComponentMeter components =
        ComponentMeter.of(
            client,
            nodes.isPresent() ? KubeletMeter.unavailable() : KubeletMeter.of(client),
            !props.localkube().isEmpty());
    Map<Component, String> componentMark = components.mark();
    Run run;
    try {
      for (int i = 0; i < shape.workloads(); i++) {
        tracers.add(
            new DeploymentTracer(client, ns, "w-" + i, null, DeploymentTracer.monotonicMs())
                .start());
      }
      CpuMeter.Mark mark = cpu.mark();
      for (int i = 0; i < shape.workloads(); i++) {
        tracers.get(i).submitted();
        client.apps().deployments().inNamespace(ns).resource(deployment("w-" + i, shape)).create();
      }
      List<Timeline> timelines =
          PoolTrace.awaitReady(() -> timelines(tracers), shape.pods(), props.runTimeout());
      if (PoolTrace.ready(timelines) < shape.pods()) {
        throw new IllegalStateException(
            PoolTrace.ready(timelines)
                + " of "
                + shape.pods()
                + " pods Ready after "
                + props.runTimeout().toSeconds()
                + " s (isolato.pipeline.run-timeout); last stages seen: "
                + Timeline.criticalPath(timelines, Milestone.POD_CREATED));
      }
      CpuMeter.Usage usage = cpu.since(mark);
      Map<Stage, Double> stages = Timeline.criticalPath(timelines, Milestone.POD_READY);
      double seconds = stages.values().stream().mapToDouble(Double::doubleValue).sum();
      run =
          new Run(
              shape,
              stages,
              seconds,
              usage,
              components.since(componentMark),
              Run.createSpan(timelines));
    } finally {
      tracers.forEach(DeploymentTracer::close);
      delete(ns);
    }
    // the next run starts on a node that has finished this one
    components.kubelets().awaitSettled(ComponentMeter.workingPods(componentMark), DELETE_TIMEOUT);
    return run;
  }

  private static List<Timeline> timelines(List<DeploymentTracer> tracers) {
    return tracers.stream().map(DeploymentTracer::timeline).toList();
  }

  /**
   * Deletes the run's namespace (by name: only ever one this class created) and waits until it is
   * gone.
   */
  private void delete(String ns) throws InterruptedException {
    client.namespaces().withName(ns).delete();
    long deadline = System.nanoTime() + DELETE_TIMEOUT.toNanos();
    while (client.namespaces().withName(ns).get() != null && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
  }

  private Deployment deployment(String name, WorkloadShape shape) {
    Map<String, String> selector = Map.of("isolato.dev/pipeline-workload", name);
    var template =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName(name)
            .withLabels(LABELS)
            .endMetadata()
            .withNewSpec()
            .withReplicas(shape.podsPerWorkload())
            .withNewSelector()
            .withMatchLabels(selector)
            .endSelector()
            .withNewTemplate()
            .withNewMetadata()
            .withLabels(selector)
            .endMetadata()
            .withNewSpec()
            .withAutomountServiceAccountToken(false)
            .withEnableServiceLinks(false)
            .withTerminationGracePeriodSeconds(0L);
    if (nodes.isPresent()) {
      NodeLabel l = nodes.get();
      template =
          template
              .withNodeSelector(Map.of(l.key(), l.value()))
              .addNewToleration()
              .withKey(l.key())
              .withOperator("Equal")
              .withValue(l.value())
              .withEffect("NoSchedule")
              .endToleration();
    }
    for (int c = 0; c < shape.containersPerPod(); c++) {
      template =
          template
              .addNewContainer()
              .withName("c" + c)
              .withImage(props.image())
              .withImagePullPolicy("Never")
              .withNewResources()
              .addToRequests("cpu", new Quantity("1m"))
              .addToRequests("memory", new Quantity("4Mi"))
              .endResources()
              .endContainer();
    }
    return template.endSpec().endTemplate().endSpec().build();
  }
}
