package dev.isolato.pipeline;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Watches the objects of a deployment — the Deployment, its ReplicaSets, their Pods and the
 * EndpointSlices of a Service — and stamps each {@link Milestone} when its first event arrives, on
 * a monotonic clock in ms. Object timestamps (creationTimestamp, lastTransitionTime) have 1 s
 * resolution; watch arrival is finer but late by the watch's delivery delay (docs/pipeline.md).
 * Start it before creating the Deployment, with {@link #submitted()} called just before the create.
 *
 * <p>Two scopes: one Deployment in one namespace ({@link #DeploymentTracer(KubernetesClient,
 * String, String, String, LongSupplier)}, the benchmark's), or every Deployment of a name in any
 * namespace, with their namespaces ({@link #inAnyNamespace}: Isolato's pools, one per namespace,
 * created or scaled by one API call). What existed when the tracer started is its baseline and
 * counts only once changed: a Deployment whose spec changed (generation), a ReplicaSet scaled up, a
 * pod created since — so a scale-out is traced like a new deployment.
 */
public final class DeploymentTracer implements AutoCloseable {

  private final KubernetesClient client;
  private final String namespace; // null: any namespace
  private final String deployment;
  private final Map<String, String> labels; // any namespace: what every traced object carries
  private final String service;
  private final LongSupplier clockMs;
  private volatile Long submitted;

  /**
   * Every object seen, keyed by uid (pods: namespace/name); events of different informers race, so
   * ownership is resolved when the timeline is taken.
   */
  private final Map<String, Seen> deployments = new ConcurrentHashMap<>();

  private final Map<String, Seen> replicaSets = new ConcurrentHashMap<>();
  private final Map<String, Seen> pods = new ConcurrentHashMap<>();
  private final Map<String, Long> namespaces = new ConcurrentHashMap<>();
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
  private Baseline baseline = Baseline.EMPTY;

  /** {@code service} may be null: then no EndpointSlice is watched and POD_SERVED never comes. */
  public DeploymentTracer(
      KubernetesClient client,
      String namespace,
      String deployment,
      String service,
      LongSupplier clockMs) {
    this(client, Objects.requireNonNull(namespace), deployment, Map.of(), service, clockMs);
  }

  private DeploymentTracer(
      KubernetesClient client,
      String namespace,
      String deployment,
      Map<String, String> labels,
      String service,
      LongSupplier clockMs) {
    this.client = client;
    this.namespace = namespace;
    this.deployment = deployment;
    this.labels = Map.copyOf(labels);
    this.service = service;
    this.clockMs = clockMs;
  }

  /**
   * Every Deployment named {@code deployment} in any namespace, with its namespace, ReplicaSets and
   * pods, all carrying {@code labels} (Isolato's pools: {@code app.kubernetes.io/managed-by:
   * isolato}); the Service of the same name's EndpointSlices.
   */
  public static DeploymentTracer inAnyNamespace(
      KubernetesClient client, String deployment, Map<String, String> labels, LongSupplier clock) {
    if (labels.isEmpty()) {
      throw new IllegalArgumentException("tracing every namespace needs a label selector");
    }
    return new DeploymentTracer(client, null, deployment, labels, deployment, clock);
  }

  public static LongSupplier monotonicMs() {
    return () -> System.nanoTime() / 1_000_000;
  }

  /**
   * What existed at the start: namespaces, Deployment generations, ReplicaSet replicas, pod uids.
   */
  private record Baseline(
      Set<String> namespaces,
      Map<String, Long> generations,
      Map<String, Integer> replicas,
      Set<String> pods) {
    static final Baseline EMPTY = new Baseline(Set.of(), Map.of(), Map.of(), Set.of());
  }

  /** Lists the baseline, then starts the informers and waits until their first lists are in. */
  public DeploymentTracer start() {
    Baseline b = new Baseline(new HashSet<>(), new HashMap<>(), new HashMap<>(), new HashSet<>());
    if (namespace == null) {
      client
          .namespaces()
          .withLabels(labels)
          .list()
          .getItems()
          .forEach(n -> b.namespaces().add(name(n)));
    }
    scoped(client.apps().deployments())
        .list()
        .getItems()
        .forEach(d -> b.generations().put(uid(d), generation(d)));
    scoped(client.apps().replicaSets())
        .list()
        .getItems()
        .forEach(rs -> b.replicas().put(uid(rs), replicas(rs)));
    scoped(client.pods()).list().getItems().forEach(p -> b.pods().add(uid(p)));
    baseline = b;
    if (namespace == null) {
      informers.add(client.namespaces().withLabels(labels).inform(onEvent(this::onNamespace)));
    }
    informers.add(scoped(client.apps().deployments()).inform(onEvent(this::onDeployment)));
    informers.add(scoped(client.apps().replicaSets()).inform(onEvent(this::onReplicaSet)));
    informers.add(scoped(client.pods()).inform(onEvent(this::onPod)));
    if (service != null) {
      var slices = client.discovery().v1().endpointSlices();
      var scope = namespace == null ? slices.inAnyNamespace() : slices.inNamespace(namespace);
      informers.add(
          scope
              .withLabel("kubernetes.io/service-name", service)
              .inform(onEvent(this::onEndpointSlice)));
    }
    return this;
  }

  /** The tracer's objects of one kind: in its namespace, or labelled, in any namespace. */
  private <T extends HasMetadata, L extends KubernetesResourceList<T>, R extends Resource<T>>
      FilterWatchListDeletable<T, L, R> scoped(MixedOperation<T, L, R> op) {
    return namespace == null ? op.inAnyNamespace().withLabels(labels) : op.inNamespace(namespace);
  }

  /** Marks the moment the client sends the create (or the call that causes it): S1's start. */
  public void submitted() {
    if (submitted == null) {
      submitted = clockMs.getAsLong();
    }
  }

  /** The one namespace's timeline (empty when nothing was seen there). */
  public Timeline timeline() {
    return timelines().getOrDefault(namespace, new Timeline(workload(null), Map.of()));
  }

  /**
   * A timeline per namespace where a traced Deployment was created or changed since the start, with
   * {@link Milestone#SUBMITTED} from {@link #submitted()} and, in any-namespace scope, {@link
   * Milestone#NAMESPACE_CREATED}.
   */
  public Map<String, Timeline> timelines() {
    Map<String, Set<String>> ours = new HashMap<>(); // namespace → its traced Deployments' uids
    namespaces.keySet().forEach(ns -> ours.put(ns, new HashSet<>())); // none yet: still pending
    deployments.forEach(
        (uid, d) -> ours.computeIfAbsent(d.namespace(), n -> new HashSet<>()).add(uid));
    Map<String, Timeline> out = new HashMap<>();
    ours.forEach(
        (ns, uids) -> {
          Map<Milestone, Long> w = workload(ns);
          uids.forEach(
              u ->
                  w.merge(
                      Milestone.WORKLOAD_CREATED,
                      deployments.get(u).milestones().get(Milestone.WORKLOAD_CREATED),
                      Math::min));
          Set<String> sets = new HashSet<>();
          replicaSets.forEach(
              (uid, rs) -> {
                if (rs.ownedByAny(uids)) {
                  sets.add(uid); // even unchanged since the start: its new pods count
                  Long unpacked = rs.milestones().get(Milestone.WORKLOAD_UNPACKED);
                  if (unpacked != null) {
                    w.merge(Milestone.WORKLOAD_UNPACKED, unpacked, Math::min);
                  }
                }
              });
          Map<String, Map<Milestone, Long>> p = new HashMap<>();
          pods.forEach(
              (key, pod) -> {
                if (pod.ownedByAny(sets)) {
                  p.put(key.substring(key.indexOf('/') + 1), pod.milestones());
                }
              });
          out.put(ns, new Timeline(w, p));
        });
    return out;
  }

  private Map<Milestone, Long> workload(String ns) {
    Map<Milestone, Long> w = new EnumMap<>(Milestone.class);
    if (submitted != null) {
      w.put(Milestone.SUBMITTED, submitted);
    }
    Long created = ns == null ? null : namespaces.get(ns);
    if (created != null) {
      w.put(Milestone.NAMESPACE_CREATED, created);
    }
    return w;
  }

  private record Seen(String namespace, Set<String> owners, Map<Milestone, Long> milestones) {
    static Seen of(HasMetadata o) {
      Set<String> owners = new HashSet<>();
      o.getMetadata().getOwnerReferences().forEach(r -> owners.add(r.getUid()));
      return new Seen(
          o.getMetadata().getNamespace(), Set.copyOf(owners), new ConcurrentHashMap<>());
    }

    boolean ownedByAny(Set<String> uids) {
      return owners.stream().anyMatch(uids::contains);
    }
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
  }

  private void onNamespace(Namespace n) {
    if (!baseline.namespaces().contains(name(n))) {
      namespaces.putIfAbsent(name(n), clockMs.getAsLong());
    }
  }

  private void onDeployment(Deployment d) {
    long now = clockMs.getAsLong();
    Long before = baseline.generations().get(uid(d));
    if (!deployment.equals(name(d)) || (before != null && generation(d) <= before)) {
      return; // another Deployment, or one whose spec did not change since the start
    }
    deployments
        .computeIfAbsent(uid(d), u -> Seen.of(d))
        .milestones()
        .putIfAbsent(Milestone.WORKLOAD_CREATED, now);
  }

  private void onReplicaSet(ReplicaSet rs) {
    long now = clockMs.getAsLong();
    Seen seen = replicaSets.computeIfAbsent(uid(rs), u -> Seen.of(rs));
    Integer before = baseline.replicas().get(uid(rs));
    if (before == null || replicas(rs) > before) {
      seen.milestones().putIfAbsent(Milestone.WORKLOAD_UNPACKED, now);
    }
  }

  private void onPod(Pod pod) {
    long now = clockMs.getAsLong();
    if (baseline.pods().contains(uid(pod))) {
      return;
    }
    Map<Milestone, Long> m =
        pods.computeIfAbsent(pod.getMetadata().getNamespace() + "/" + name(pod), n -> Seen.of(pod))
            .milestones();
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
        Seen pod = pods.get(slice.getMetadata().getNamespace() + "/" + e.getTargetRef().getName());
        if (pod != null) {
          pod.milestones().putIfAbsent(Milestone.POD_SERVED, now);
        }
      }
    }
  }

  private static String uid(HasMetadata o) {
    return o.getMetadata().getUid();
  }

  private static String name(HasMetadata o) {
    return o.getMetadata().getName();
  }

  private static long generation(Deployment d) {
    return d.getMetadata().getGeneration() == null ? 0 : d.getMetadata().getGeneration();
  }

  private static int replicas(ReplicaSet rs) {
    return rs.getSpec() == null || rs.getSpec().getReplicas() == null
        ? 0
        : rs.getSpec().getReplicas();
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
