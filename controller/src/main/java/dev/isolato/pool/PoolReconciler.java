package dev.isolato.pool;

import dev.isolato.kube.LeanItemStore;
import dev.isolato.scaling.DirectFloor;
import dev.isolato.tenancy.ImagePolicy;
import dev.isolato.tenancy.NotOwned;
import dev.isolato.tenancy.PoolKeys;
import dev.isolato.tenancy.PoolState;
import dev.isolato.tenancy.PoolTokens;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloPool;
import dev.isolato.tenancy.SloPoolStatus;
import dev.isolato.tenancy.TablePusher;
import dev.isolato.tenancy.TableServed;
import dev.isolato.tenancy.TenancyMetrics;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import io.javaoperatorsdk.operator.processing.dependent.workflow.WorkflowReconcileResult;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one pool: while its class exists, its objects (the declared workflow below), then its
 * table on the pods, then its status. The namespace and the PriorityClass come first, then the
 * namespace's guards and the workload's inputs, the Deployment and Service, the autoscaler (CPU HPA
 * or KEDA ScaledObject, as the pool's spec chose) and the filler last. A failed object stops only
 * what depends on it, and only this pool.
 */
@Workflow(
    explicitInvocation = true,
    handleExceptionsInReconciler = true,
    dependents = {
      @Dependent(name = "namespace", type = PoolDependents.PoolNamespace.class),
      @Dependent(name = "priorityclass", type = PoolDependents.ClassPriority.class),
      @Dependent(name = "quota", type = PoolDependents.Quota.class, dependsOn = "namespace"),
      @Dependent(name = "limits", type = PoolDependents.Limits.class, dependsOn = "namespace"),
      @Dependent(name = "deny-all", type = PoolDependents.DenyAll.class, dependsOn = "namespace"),
      @Dependent(
          name = "allow-service",
          type = PoolDependents.AllowService.class,
          dependsOn = "namespace"),
      @Dependent(
          name = "admin-secret",
          type = PoolDependents.AdminSecret.class,
          dependsOn = "namespace"),
      @Dependent(name = "table", type = PoolDependents.Table.class, dependsOn = "namespace"),
      @Dependent(
          name = "deployment",
          type = PoolDependents.Workload.class,
          dependsOn = {
            "priorityclass",
            "quota",
            "limits",
            "deny-all",
            "allow-service",
            "admin-secret",
            "table"
          }),
      @Dependent(
          name = "service",
          type = PoolDependents.WorkloadService.class,
          dependsOn = "namespace"),
      @Dependent(
          name = "hpa",
          type = PoolDependents.CpuAutoscaler.class,
          dependsOn = {"deployment", "service"},
          reconcilePrecondition = PoolDependents.CpuChosen.class),
      @Dependent(
          name = "scaledobject",
          type = PoolDependents.KedaAutoscaler.class,
          dependsOn = {"deployment", "service"},
          activationCondition = PoolDependents.KedaChosen.class),
      @Dependent(
          name = "filler-priorityclass",
          type = PoolDependents.FillerPriority.class,
          reconcilePrecondition = PoolDependents.FillerWanted.class),
      // the filler only next to a running class: after the class's own Deployment
      @Dependent(
          name = "filler",
          type = PoolDependents.Filler.class,
          dependsOn = {"filler-priorityclass", "deployment"},
          reconcilePrecondition = PoolDependents.FillerWanted.class)
    })
// No rate limit: JOSDK runs one pass per pool at a time and folds the events that arrive meanwhile
// into one next pass, and the class reconciler keeps one spec in flight per pool (see
// SloClassReconciler), so a burst of tenants already reaches the pool in few larger steps; a
// fixed 250 ms limit only delayed the tenant that came alone (docs/onboarding-profile.md).
public class PoolReconciler implements Reconciler<SloPool> {
  private static final Logger log = LoggerFactory.getLogger(PoolReconciler.class);

  /** The event source of the pool master key Secret (every pool's admin tokens derive from it). */
  static final String KEYS = "pool-keys";

  /** The event source of the classes (a pool acts only while the class that owns it exists). */
  static final String CLASSES = "classes";

  /**
   * The event source of the pool Services' EndpointSlices that Kubernetes made: a push reads its
   * pods' addresses from this watched copy, not from the API server, and a pod's address becoming
   * ready brings the pool back.
   */
  static final String ENDPOINTS = "endpoints";

  /** Runs the early pushes (blocking HTTP: not the common pool, one thread on 2 cores). */
  private static final ExecutorService PUSHES =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "isolato-table-push");
            t.setDaemon(true);
            return t;
          });

  private final TablePusher pusher;
  private final TenancyMetrics metrics;
  private final String keyNamespace;
  private final ImagePolicy images;
  private final Duration tableCheck;
  private final TableServed served;
  // when each pool's pods' tables were last read (one entry per pool name)
  private final Map<String, Instant> tablesChecked = new ConcurrentHashMap<>();
  private InformerEventSource<EndpointSlice, SloPool> endpointSource;

  /**
   * @param keyNamespace the namespace of the pool master key Secret (the controller's)
   * @param images the images a pool may run (checked again here: a pool resource is writable by
   *     whoever the cluster grants it to, not only by the class reconciler)
   * @param tableCheck how often, at most, a synced pool's pods' tables are read back
   * @param served told when a push reached every ready pod, before the pool's status is written
   */
  public PoolReconciler(
      TablePusher pusher,
      TenancyMetrics metrics,
      String keyNamespace,
      ImagePolicy images,
      Duration tableCheck,
      TableServed served) {
    this.pusher = pusher;
    this.metrics = metrics;
    this.keyNamespace = keyNamespace;
    this.images = images;
    this.tableCheck = tableCheck;
    this.served = served;
  }

  @Override
  public List<EventSource<?, SloPool>> prepareEventSources(EventSourceContext<SloPool> context) {
    ResourceID keys = new ResourceID(PoolKeys.SECRET, keyNamespace);
    // only a class's appearance and deletion matter here, not its updates
    var classes =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(SloClass.class, SloPool.class)
                .withName(CLASSES)
                .withSecondaryToPrimaryMapper(
                    c ->
                        context
                            .getPrimaryCache()
                            .list(p -> c.getMetadata().getName().equals(p.getSpec().sloClass))
                            .map(ResourceID::fromResource)
                            .collect(Collectors.toSet()))
                .withPrimaryToSecondaryMapper(
                    (SloPool p) -> Set.of(new ResourceID(p.getSpec().sloClass)))
                .withOnUpdateFilter((newer, older) -> false)
                .build(),
            context);
    // a pool is named as its namespace: the slices of that namespace are its
    endpointSource =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(EndpointSlice.class, SloPool.class)
                .withName(ENDPOINTS)
                .withLabelSelector(TablePusher.SLICE_SELECTOR)
                .withItemStore(new LeanItemStore<>())
                .withSecondaryToPrimaryMapper(
                    s -> Set.of(new ResourceID(s.getMetadata().getNamespace())))
                .withPrimaryToSecondaryMapper(
                    (SloPool p) ->
                        slices(p).stream()
                            .map(ResourceID::fromResource)
                            .collect(Collectors.toSet()))
                .build(),
            context);
    return List.of(
        classes,
        endpointSource,
        PoolKeys.eventSource(KEYS, keyNamespace, context, p -> Set.of(keys)));
  }

  /** The pool Service's slices Kubernetes made, as watched. */
  private List<EndpointSlice> slices(SloPool pool) {
    return endpointSource == null
        ? List.of()
        : endpointSource.list(pool.getMetadata().getName(), s -> true).toList();
  }

  @Override
  public UpdateControl<SloPool> reconcile(SloPool pool, Context<SloPool> context) {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    log.debug(
        "pool {}: generation {}, resourceVersion {}",
        pool.getMetadata().getName(),
        pool.getMetadata().getGeneration(),
        pool.getMetadata().getResourceVersion());
    if (!classLive(pool, context)) {
      // its class is gone: the garbage collector removes the pool and its objects
      return UpdateControl.noUpdate();
    }
    Optional<String> refused = PoolInput.refusal(pool, images);
    if (refused.isPresent()) {
      log.warn("pool {}: refused, {}", pool.getMetadata().getName(), refused.get());
      PoolProgress.Step held =
          PoolProgress.held(pool, new PoolProgress.Failure(true, refused.get()), now);
      return PoolProgress.same(pool.getStatus(), held.status())
          ? UpdateControl.noUpdate()
          : UpdateControl.patchStatus(statusPatch(pool, held.status()));
    }
    Table table = table(pool, context);
    table.checkHeld(now);
    // a pool already applied with ready pods gets its new table pushed while the workflow writes
    // the objects (the ConfigMap, the durable copy): the push no longer waits for that write. Not
    // during a key rotation: its pushes and the admin Secret's tokens keep their old order.
    CompletableFuture<TablePusher.Result> early =
        !table.rotating && PoolProgress.applied(pool.getStatus()) && table.due()
            ? table.pushAsync()
            : null;
    var objects = context.managedWorkflowAndDependentResourceContext().reconcileManagedWorkflow();
    log.debug("pool {}: objects reconciled", pool.getMetadata().getName());
    // joined before the pass ends, whatever the objects did: two pushes of one pool never overlap
    TablePusher.Result pushedEarly = early == null ? null : early.join();
    // without an early push, the pods as the workflow left them (as before the early push existed)
    Table after = early == null ? table(pool, context) : table;
    PoolProgress.Step step =
        objectsFailure(objects)
            .map(
                f -> {
                  log.warn("pool {}: {}", pool.getMetadata().getName(), f.message());
                  return PoolProgress.held(pool, f, now);
                })
            .orElseGet(() -> after.step(pushedEarly, now));
    UpdateControl<SloPool> control =
        PoolProgress.same(pool.getStatus(), step.status())
            ? UpdateControl.noUpdate()
            : UpdateControl.patchStatus(statusPatch(pool, step.status()));
    // a direct-path floor that holds is lowered by the pass after it ends
    Optional<Duration> recheck =
        Stream.of(
                step.recheck(),
                DirectFloor.remaining(directFloor(pool, context), Instant.now())
                    .map(d -> d.plus(FLOOR_MARGIN)))
            .flatMap(Optional::stream)
            .min(Comparator.naturalOrder());
    return recheck.map(control::rescheduleAfter).orElse(control);
  }

  /** After a floor's end, so that the pass sees it ended. */
  private static final Duration FLOOR_MARGIN = Duration.ofMillis(200);

  /** Step 0, owner: whether the class that owns the pool (by uid) still exists. */
  private static boolean classLive(SloPool pool, Context<SloPool> context) {
    Optional<String> uid = PoolInput.classUid(pool);
    return context
        .getSecondaryResource(SloClass.class, CLASSES)
        .filter(c -> uid.isPresent() && uid.get().equals(c.getMetadata().getUid()))
        .isPresent();
  }

  /** Step 1, objects: why the workflow could not apply them, if it could not. */
  private static Optional<PoolProgress.Failure> objectsFailure(WorkflowReconcileResult result) {
    if (!result.erroredDependentsExist()) {
      return Optional.empty();
    }
    var errors = result.getErroredDependents();
    errors.forEach((d, e) -> log.debug("dependent {} failed", d.name(), e));
    Optional<PoolProgress.Failure> refusal =
        errors.values().stream()
            .map(PoolReconciler::root)
            .filter(NotOwned.class::isInstance)
            .findFirst()
            .map(e -> new PoolProgress.Failure(true, e.getMessage()));
    return refusal.or(
        () ->
            errors.entrySet().stream()
                .findFirst()
                .map(
                    e ->
                        new PoolProgress.Failure(
                            false, e.getKey().name() + ": " + describe(root(e.getValue())))));
  }

  private static String describe(Throwable e) {
    return e instanceof KubernetesClientException k
        ? "HTTP " + k.getCode() + " " + abbreviate(k.getMessage())
        : abbreviate(String.valueOf(e.getMessage()));
  }

  /**
   * Step 2, table: pushed to the ready pods when the table changed, when pods became ready since
   * the last push, or while they have yet to accept a rotated key's token.
   */
  private Table table(SloPool pool, Context<SloPool> context) {
    Deployment deployment = workload(pool, context).orElse(null);
    PoolTokens.Keys keys = PoolInput.keys(context.getSecondaryResource(Secret.class, KEYS));
    boolean rotating = PoolInput.rotating(pool, keys);
    return new Table(
        pool,
        pods(deployment, pool.getSpec().replicas),
        TablePusher.readyEndpoints(slices(pool)),
        keys,
        rotating,
        context.getClient());
  }

  /**
   * The pool's own Deployment as the informer has it (the filler's lives in the same namespace).
   */
  static Optional<Deployment> workload(SloPool pool, Context<SloPool> context) {
    String ns = pool.getMetadata().getName();
    return context
        .eventSourceRetriever()
        .getEventSourceFor(Deployment.class, "deployment")
        .getSecondaryResources(pool)
        .stream()
        .filter(d -> ns.equals(d.getMetadata().getNamespace()))
        .filter(d -> dev.isolato.tenancy.Workload.NAME.equals(d.getMetadata().getName()))
        .findFirst();
  }

  /** The direct path's last raise, as written on the pool's Deployment. */
  static Optional<DirectFloor> directFloor(SloPool pool, Context<SloPool> context) {
    return workload(pool, context).flatMap(d -> DirectFloor.read(d.getMetadata().getAnnotations()));
  }

  /** The pool's table against its pods: whether a push is due, the push, and the next status. */
  private final class Table {
    private final SloPool pool;
    private final PoolProgress.Pods pods;
    private final List<TablePusher.Target> endpoints;
    private final PoolTokens.Keys keys;
    private final boolean rotating;
    private final KubernetesClient client;

    Table(
        SloPool pool,
        PoolProgress.Pods pods,
        List<TablePusher.Target> endpoints,
        PoolTokens.Keys keys,
        boolean rotating,
        KubernetesClient client) {
      this.pool = pool;
      this.pods = pods;
      this.endpoints = endpoints;
      this.keys = keys;
      this.rotating = rotating;
      this.client = client;
    }

    private List<String> tokens() {
      return PoolTokens.tokens(keys, pool.getMetadata().getName(), !rotating);
    }

    /** The pods' tables differ from the pool's, though the status says they were pushed. */
    private boolean drifted;

    boolean due() {
      return (PoolProgress.needsPush(pool, pods, rotating) || drifted) && pods.ready() > 0;
    }

    /**
     * Reads back the ready pods' tables of a synced pool, at most once per {@code tableCheck}: a
     * pod may hold another table than the one pushed (one pushed by whoever holds the pool's admin
     * token, or one its restart read from a ConfigMap the kubelet had not refreshed yet), and the
     * status would go on saying synced. Such a pool is pushed to again.
     */
    void checkHeld(Instant now) {
      String name = pool.getMetadata().getName();
      Instant last = tablesChecked.get(name);
      if (rotating
          || pods.ready() == 0
          || !PoolProgress.applied(pool.getStatus())
          || PoolProgress.needsPush(pool, pods, rotating)
          || (last != null && now.isBefore(last.plus(tableCheck)))) {
        return;
      }
      tablesChecked.put(name, now);
      List<TablePusher.Target> other =
          pusher.holdingOther(endpoints, pool.getSpec().tableVersion(), tokens());
      if (!other.isEmpty()) {
        drifted = true;
        metrics.tableDrift(pool.getSpec().sloClass, other.size());
        log.warn(
            "pool {}: {} pod(s) hold another table than the pool's {} or did not say which ({}); pushing it again",
            name,
            other.size(),
            pool.getSpec().tableVersion(),
            other.stream().map(t -> t.pod() != null ? t.pod() : t.address()).toList());
      }
    }

    CompletableFuture<TablePusher.Result> pushAsync() {
      return CompletableFuture.supplyAsync(this::push, PUSHES);
    }

    private TablePusher.Result push() {
      String ns = pool.getMetadata().getName();
      TablePusher.Result pushed = pusher.push(endpoints, pool.servedTable(), tokens());
      log.debug("pool {}: table pushed to {}/{} pods", ns, pushed.accepted(), pushed.readyPods());
      // the tenants need not wait for the pool's status (nor an early push for the objects)
      if (pushed.complete()) {
        served.tableServed(
            pool,
            new PoolState(ns, pool.getSpec().replicas, pods.ready(), true, PoolProgress.SYNCED));
      }
      return pushed;
    }

    /** The next status, from the push made early ({@code early}, or null) or made now. */
    PoolProgress.Step step(TablePusher.Result early, Instant now) {
      if (!PoolProgress.needsPush(pool, pods, rotating) && !drifted) {
        return PoolProgress.unchanged(pool, pods, keys, now);
      }
      if (pods.ready() == 0) {
        return PoolProgress.noReadyPod(pool, pods, now);
      }
      TablePusher.Result pushed = early != null ? early : push();
      String ns = pool.getMetadata().getName();
      if (rotating && pushed.firstTokenEverywhere()) {
        log.info(
            "pool {} accepts the token of key {}; dropping the previous token",
            ns,
            keys.fingerprint());
      }
      if (!pushed.errors().isEmpty()) {
        metrics.tablePushFailures(pool.getSpec().sloClass, pushed.errors().size());
      }
      ForeignTablePods.replace(
          client, pusher, metrics, pool, tokens(), pushed.holdingHigherRevision());
      return PoolProgress.pushed(pool, pods, keys, rotating, pushed, now);
    }
  }

  private static PoolProgress.Pods pods(Deployment d, int planned) {
    if (d == null) {
      return new PoolProgress.Pods(planned, 0);
    }
    int replicas =
        d.getSpec() == null || d.getSpec().getReplicas() == null
            ? planned
            : d.getSpec().getReplicas();
    int ready =
        d.getStatus() == null || d.getStatus().getReadyReplicas() == null
            ? 0
            : d.getStatus().getReadyReplicas();
    return new PoolProgress.Pods(replicas, ready);
  }

  private static SloPool statusPatch(SloPool pool, SloPoolStatus status) {
    SloPool patch = new SloPool();
    patch.setMetadata(new ObjectMetaBuilder().withName(pool.getMetadata().getName()).build());
    patch.setSpec(null);
    patch.setStatus(status);
    return patch;
  }

  private static Throwable root(Throwable e) {
    Throwable t = e;
    while (!(t instanceof NotOwned)
        && !(t instanceof KubernetesClientException)
        && t.getCause() != null
        && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
  }

  private static String abbreviate(String s) {
    return s == null ? "" : s.length() > 300 ? s.substring(0, 300) + "…" : s;
  }
}
