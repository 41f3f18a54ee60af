package dev.isolato.pipeline;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Watches one Deployment's objects — the Deployment, its ReplicaSets, their Pods and the
 * EndpointSlices of a Service — and stamps each {@link Milestone} when its first event arrives, on
 * a monotonic clock in ms. Object timestamps (creationTimestamp, lastTransitionTime) have 1 s
 * resolution; watch arrival is finer but late by the watch's delivery delay (docs/pipeline.md).
 * Start it before creating the Deployment, with {@link #submitted()} called just before the create.
 */
public final class DeploymentTracer implements AutoCloseable {

  private final KubernetesClient client;
  private final String namespace;
  private final String deployment;
  private final String service;
  private final LongSupplier clockMs;
  private final Map<Milestone, Long> workload = new ConcurrentHashMap<>();
  private final Set<String> deploymentUids = ConcurrentHashMap.newKeySet();

  /**
   * Every object seen, keyed by uid (ReplicaSets) or name (pods), with its owners: events of
   * different informers race, so ownership is resolved when the timeline is taken.
   */
  private final Map<String, Seen> replicaSets = new ConcurrentHashMap<>();

  private final Map<String, Seen> pods = new ConcurrentHashMap<>();
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

  /** {@code service} may be null: then no EndpointSlice is watched and POD_SERVED never comes. */
  public DeploymentTracer(
      KubernetesClient client,
      String namespace,
      String deployment,
      String service,
      LongSupplier clockMs) {
    this.client = client;
    this.namespace = namespace;
    this.deployment = deployment;
    this.service = service;
    this.clockMs = clockMs;
  }

  public static LongSupplier monotonicMs() {
    return () -> System.nanoTime() / 1_000_000;
  }

  /** Starts the informers and waits until their first lists are in. */
  public DeploymentTracer start() {
    informers.add(
        client
            .apps()
            .deployments()
            .inNamespace(namespace)
            .withName(deployment)
            .inform(onEvent(this::onDeployment)));
    informers.add(
        client.apps().replicaSets().inNamespace(namespace).inform(onEvent(this::onReplicaSet)));
    informers.add(client.pods().inNamespace(namespace).inform(onEvent(this::onPod)));
    if (service != null) {
      informers.add(
          client
              .discovery()
              .v1()
              .endpointSlices()
              .inNamespace(namespace)
              .withLabel("kubernetes.io/service-name", service)
              .inform(onEvent(this::onEndpointSlice)));
    }
    return this;
  }

  /** Marks the moment the client sends the Deployment's create: the start of S1. */
  public void submitted() {
    workload.putIfAbsent(Milestone.SUBMITTED, clockMs.getAsLong());
  }

  public Timeline timeline() {
    Map<Milestone, Long> w = new EnumMap<>(workload);
    Set<String> ours = new HashSet<>();
    replicaSets.forEach(
        (uid, rs) -> {
          if (rs.ownedByAny(deploymentUids)) {
            ours.add(uid);
            w.merge(
                Milestone.WORKLOAD_UNPACKED,
                rs.milestones().get(Milestone.WORKLOAD_UNPACKED),
                Math::min);
          }
        });
    Map<String, Map<Milestone, Long>> p = new HashMap<>();
    pods.forEach(
        (name, pod) -> {
          if (pod.ownedByAny(ours)) {
            p.put(name, pod.milestones());
          }
        });
    return new Timeline(w, p);
  }

  private record Seen(Set<String> owners, Map<Milestone, Long> milestones) {
    static Seen of(HasMetadata o) {
      Set<String> owners = new HashSet<>();
      o.getMetadata().getOwnerReferences().forEach(r -> owners.add(r.getUid()));
      return new Seen(Set.copyOf(owners), new ConcurrentHashMap<>());
    }

    boolean ownedByAny(Set<String> uids) {
      return owners.stream().anyMatch(uids::contains);
    }
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
  }

  private void onDeployment(Deployment d) {
    deploymentUids.add(d.getMetadata().getUid());
    workload.putIfAbsent(Milestone.WORKLOAD_CREATED, clockMs.getAsLong());
  }

  private void onReplicaSet(ReplicaSet rs) {
    long now = clockMs.getAsLong();
    replicaSets
        .computeIfAbsent(rs.getMetadata().getUid(), u -> Seen.of(rs))
        .milestones()
        .putIfAbsent(Milestone.WORKLOAD_UNPACKED, now);
  }

  private void onPod(Pod pod) {
    long now = clockMs.getAsLong();
    Map<Milestone, Long> m =
        pods.computeIfAbsent(pod.getMetadata().getName(), n -> Seen.of(pod)).milestones();
    m.putIfAbsent(Milestone.POD_CREATED, now);
    if (pod.getSpec().getNodeName() != null) {
      m.putIfAbsent(Milestone.POD_BOUND, now);
    }
    var status = pod.getStatus();
    if (status == null) {
      return;
    }
    if (conditionTrue(pod, "PodReadyToStartContainers") || status.getPodIP() != null) {
      m.putIfAbsent(Milestone.SANDBOX_READY, now);
    }
    var containers = status.getContainerStatuses();
    if (containers != null
        && containers.size() == pod.getSpec().getContainers().size()
        && containers.stream()
            .allMatch(c -> c.getState() != null && c.getState().getRunning() != null)) {
      m.putIfAbsent(Milestone.CONTAINERS_STARTED, now);
    }
    if (conditionTrue(pod, "Ready")) {
      m.putIfAbsent(Milestone.POD_READY, now);
    }
  }

  private void onEndpointSlice(EndpointSlice slice) {
    long now = clockMs.getAsLong();
    if (slice.getEndpoints() == null) {
      return;
    }
    for (var e : slice.getEndpoints()) {
      boolean ready =
          e.getConditions() != null && Boolean.TRUE.equals(e.getConditions().getReady());
      if (ready && e.getTargetRef() != null && "Pod".equals(e.getTargetRef().getKind())) {
        Seen pod = pods.get(e.getTargetRef().getName());
        if (pod != null) {
          pod.milestones().putIfAbsent(Milestone.POD_SERVED, now);
        }
      }
    }
  }

  private static boolean conditionTrue(Pod pod, String type) {
    List<PodCondition> conditions = pod.getStatus().getConditions();
    return conditions != null
        && conditions.stream()
            .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static <T> ResourceEventHandler<T> onEvent(Consumer<T> seen) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        seen.accept(obj);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        seen.accept(newObj);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {}
    };
  }
}
