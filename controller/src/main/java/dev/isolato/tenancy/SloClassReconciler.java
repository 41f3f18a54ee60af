package dev.isolato.tenancy;

import dev.isolato.scaling.Autoscaler;
import dev.isolato.slo.CapacityPlan;
import dev.isolato.slo.CapacityPlanner;
import dev.isolato.slo.PlanRequest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one SLO class: its shared pool and the pools of its dedicated tenants, the tenants'
 * statuses and finalizers, and the class's status. Tenants and pool objects map to their class, so
 * JOSDK serialises all work on one class and a burst of tenant events collapses into few reconciles
 * (and few API writes).
 *
 * <p>One pass is a short sequence of steps: {@link #applyPoolObjects pool objects and table pushes}
 * (each pool's {@link PoolWorkflow}, then its {@link #push table push}), {@link
 * #writeTenantStatuses tenant statuses}, {@link #releaseDeleted releases}, {@link #classStatus
 * class status}.
 */
public class SloClassReconciler implements Reconciler<SloClass>, Cleaner<SloClass>, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SloClassReconciler.class);

  /** How soon to look again while a tenant waits for pods or endpoints. */
  static final Duration PENDING_RECHECK = Duration.ofMillis(500);

  /** TableSynced message of a pool whose every ready pod holds the current table. */
  static final String SYNCED = "current table on every ready pod";

  /** How soon to look again while a pool waits for its pods to accept a rotated token. */
  static final Duration ROTATION_RECHECK = Duration.ofSeconds(5);

  /** How soon to look again at a pool held by a namespace Isolato does not own. */
  static final Duration CONFLICT_RECHECK = Duration.ofSeconds(10);

  private static final int STATUS_WRITERS = 4;

  /** Pools of one class applied at once, unless configured (isolato.pool-apply-threads). */
  public static final int DEFAULT_POOL_APPLIERS = 8;

  private final KubernetesClient client;
  private final CapacityPlanner planner;
  private final PoolWorkflow pools = new PoolWorkflow();
  private final TablePusher pusher;
  private final TenancyMetrics metrics;
  private final String tenantNamespace;
  private final PoolKeys poolKeys;
  private final ImagePolicy images;
  private final NetworkPeers peers;
  private final Autoscaler autoscaler;

  /**
   * Per pool namespace, the fingerprint of the master key whose token every ready pod has accepted:
   * such a pool's token file no longer lists the previous key's token.
   */
  private final Map<String, String> confirmedKey = new ConcurrentHashMap<>();

  /**
   * Tenant status writes of one reconcile go out concurrently: after a burst, a reconcile serves
   * several new tenants at once and sequential round trips would add up. Shut down by {@link
   * #close()}.
   */
  private final ExecutorService statusWriters = daemonPool(STATUS_WRITERS, "isolato-status-writer");

  /** Applies a class's pools concurrently; shut down by {@link #close()}. */
  private final ExecutorService poolAppliers;

  /** The tenants' informer: the reconciler's own status writes go into its cache. */
  private InformerEventSource<Tenant, SloClass> tenantSource;

  private InformerEventSource<Secret, SloClass> keySource;

  public SloClassReconciler(
      KubernetesClient client,
      CapacityPlanner planner,
      TablePusher pusher,
      TenancyMetrics metrics,
      String tenantNamespace,
      ImagePolicy images,
      NetworkPeers peers) {
    this(
        client,
        planner,
        pusher,
        metrics,
        tenantNamespace,
        images,
        peers,
        Autoscaler.hpaOnly(),
        DEFAULT_POOL_APPLIERS);
  }

  public SloClassReconciler(
      KubernetesClient client,
      CapacityPlanner planner,
      TablePusher pusher,
      TenancyMetrics metrics,
      String tenantNamespace,
      ImagePolicy images,
      NetworkPeers peers,
      Autoscaler autoscaler,
      int poolApplyThreads) {
    this.autoscaler = autoscaler;
    this.poolAppliers = daemonPool(poolApplyThreads, "isolato-pool-applier");
    this.client = client;
    this.planner = planner;
    this.pusher = pusher;
    this.metrics = metrics;
    this.tenantNamespace = tenantNamespace;
    this.poolKeys = new PoolKeys(client, tenantNamespace);
    this.images = images;
    this.peers = peers;
  }

  /**
   * Which updates of a class trigger a reconcile: spec changes (generation), deletion, finalizer
   * changes, and a new calibration (status written by the API; the reconciler's own status writes
   * do not count). Registered with generation awareness off, which alone would miss the
   * calibration.
   */
  public static boolean worthReconciling(SloClass newer, SloClass older) {
    return older == null
        || !Objects.equals(newer.getMetadata().getGeneration(), older.getMetadata().getGeneration())
        || newer.getMetadata().getDeletionTimestamp() != null
        || !Objects.equals(newer.getMetadata().getFinalizers(), older.getMetadata().getFinalizers())
        || CalibrationStatusMapper.calibrationChanged(newer, older);
  }

  @Override
  public List<EventSource<?, SloClass>> prepareEventSources(EventSourceContext<SloClass> context) {
    var tenants =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Tenant.class, SloClass.class)
                .withName("tenants")
                .withNamespaces(Set.of(tenantNamespace))
                .withSecondaryToPrimaryMapper(t -> Set.of(new ResourceID(t.getSpec().sloClass)))
                .build(),
            context);
    // a rotated (or re-created) master key concerns every class
    var keys =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Secret.class, SloClass.class)
                .withName("pool-keys")
                .withNamespaces(Set.of(tenantNamespace))
                .withLabelSelector(PoolKeys.ROLE_LABEL + "=" + PoolKeys.ROLE)
                .withSecondaryToPrimaryMapper(
                    k ->
                        context
                            .getPrimaryCache()
                            .list()
                            .map(ResourceID::fromResource)
                            .collect(Collectors.toSet()))
                .build(),
            context);
    this.tenantSource = tenants;
    this.keySource = keys;
    List<EventSource<?, SloClass>> sources = new ArrayList<>(List.of(tenants, keys));
    sources.addAll(pools.eventSources(context));
    return sources;
  }

  @Override
  public UpdateControl<SloClass> reconcile(SloClass cls, Context<SloClass> context) {
    Pass pass = pass(cls, context, List.of());
    UpdateControl<SloClass> control =
        pass.statusPatch() == null
            ? UpdateControl.noUpdate()
            : UpdateControl.patchStatus(pass.statusPatch());
    return pass.recheck().map(control::rescheduleAfter).orElse(control);
  }

  /**
   * What one pass over a class produced: its status patch (null: unchanged) and when to look again.
   */
  private record Pass(SloClass statusPatch, Optional<Duration> recheck) {}

  /**
   * One pass over a class. {@code deletionWaitsFor} names the live tenants a deleted class waits
   * for (empty otherwise).
   */
  private Pass pass(SloClass cls, Context<SloClass> context, List<String> deletionWaitsFor) {
    String name = cls.getMetadata().getName();
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    List<Tenant> tenants = List.copyOf(context.getSecondaryResources(Tenant.class));
    List<Pool> classPools = Pools.of(name, tenants);
    List<PoolRun> runs;
    Optional<String> classProblem = PoolNames.classNameProblem(name).map(m -> "class name " + m);
    Optional<String> refused = classProblem.or(() -> images.problem(cls.getSpec()));
    if (refused.isPresent()) {
      // nothing is applied for a class the controller refuses; its tenants wait, saying why
      String reason = classProblem.isPresent() ? "InvalidName" : "ImageNotAllowed";
      runs = classPools.stream().map(p -> PoolRun.held(p, reason, refused.get())).toList();
    } else {
      runs = applyPoolObjects(cls, classPools, context);
      removeStrayPools(cls, classPools.stream().map(Pool::namespace).collect(Collectors.toSet()));
    }
    Map<String, TenantPhase> written = writeTenantStatuses(runs);
    releaseDeleted(cls, tenants);
    // counted after the writes, so the gauge says what the statuses now say
    metrics.tenantPhases(
        name,
        tenants.stream()
            .collect(
                Collectors.groupingBy(
                    t -> written.getOrDefault(t.getMetadata().getName(), TenantPhase.of(t)),
                    TreeMap::new,
                    Collectors.counting())));
    metrics.classFacts(cls);
    List<PoolOutcome> outcomes = runs.stream().map(r -> r.outcome(written)).toList();
    SloClassStatus.Plan sharedPlan =
        runs.stream()
            .filter(r -> !r.pool().dedicated() && r.plan() != null)
            .findFirst()
            .map(r -> ClassPlans.toStatus(r.plan(), r.request()))
            .orElse(null);
    return new Pass(
        classStatus(cls, sharedPlan, tenants, outcomes, deletionWaitsFor, now),
        PoolOutcome.recheck(outcomes));
  }

  /**
   * One pool through the pass: its plan and table, whether its objects were applied (or why it is
   * held or failed), then the state its tenants' statuses are computed from.
   */
  private record PoolRun(
      Pool pool,
      PlanRequest request,
      CapacityPlan plan,
      String table,
      List<String> tokens,
      String keyFingerprint,
      boolean rotating,
      boolean tableChanged,
      Deployment deployment,
      String heldReason,
      String heldMessage,
      PoolState state) {
    static PoolRun held(Pool pool, String reason, String message) {
      return new PoolRun(
          pool, null, null, null, List.of(), null, false, false, null, reason, message, null);
    }

    boolean applied() {
      return heldReason == null;
    }

    PoolRun withState(PoolState s) {
      return new PoolRun(
          pool,
          request,
          plan,
          table,
          tokens,
          keyFingerprint,
          rotating,
          tableChanged,
          deployment,
          heldReason,
          heldMessage,
          s);
    }

    PoolOutcome outcome(Map<String, TenantPhase> phases) {
      if (!applied()) {
        return PoolOutcome.APPLY_FAILED.equals(heldReason)
            ? PoolOutcome.failed(pool.namespace(), heldMessage)
            : new PoolOutcome(
                pool.namespace(), heldReason, heldMessage, !pool.tenants().isEmpty(), false);
      }
      boolean pending =
          pool.tenants().stream()
              .anyMatch(
                  t ->
                      phases.getOrDefault(t.getMetadata().getName(), TenantPhase.of(t))
                          != TenantPhase.Serving);
      return new PoolOutcome(pool.namespace(), null, null, pending, rotating);
    }
  }

  /**
   * What became of one pool: a condition message when it is held (nothing applied), whether tenants
   * still wait, whether its pods have yet to accept a rotated token.
   */
  record PoolOutcome(
      String namespace, String heldReason, String heldMessage, boolean pending, boolean rotating) {
    static final String APPLY_FAILED = "ApplyFailed";

    /** The pool's objects could not be applied; its tenants' statuses are left as they are. */
    static PoolOutcome failed(String namespace, String message) {
      return new PoolOutcome(namespace, APPLY_FAILED, message, true, false);
    }

    /**
     * When to reconcile again: soon while tenants wait or a pool failed, less often for rotations
     * and conflicts.
     */
    static Optional<Duration> recheck(List<PoolOutcome> outcomes) {
      if (outcomes.stream()
          .anyMatch(
              o ->
                  o.pending() && (o.heldReason() == null || APPLY_FAILED.equals(o.heldReason())))) {
        return Optional.of(PENDING_RECHECK);
      }
      if (outcomes.stream().anyMatch(PoolOutcome::rotating)) {
        return Optional.of(ROTATION_RECHECK);
      }
      return outcomes.stream().anyMatch(o -> o.heldReason() != null)
          ? Optional.of(CONFLICT_RECHECK)
          : Optional.empty();
    }
  }

  /**
   * Step 1, pool objects and table pushes: each pool's plan, table and tokens, its objects through
   * the pool workflow, then its table push (step 2), {@code poolAppliers} pools at a time (a pool's
   * apply and push are chains of round trips; one after another, 50 dedicated tenants' pools took
   * 40 s, and a pool's push does not wait for the other pools' applies). A pool with an invalid
   * namespace name, or whose objects are not Isolato's, is held; one whose apply failed is retried
   * soon; the other pools go on either way.
   */
  private List<PoolRun> applyPoolObjects(
      SloClass cls, List<Pool> classPools, Context<SloClass> context) {
    PoolTokens.Keys keys =
        poolKeys.keys(
            keySource == null
                ? null
                : keySource.get(new ResourceID(PoolKeys.SECRET, tenantNamespace)).orElse(null));
    if (classPools.size() == 1) {
      return List.of(pushed(applyPool(cls, classPools.get(0), keys, context)));
    }
    List<CompletableFuture<PoolRun>> applies =
        classPools.stream()
            .map(
                pool ->
                    CompletableFuture.supplyAsync(
                        () -> pushed(applyPool(cls, pool, keys, context)), poolAppliers))
            .toList();
    awaitAll(applies);
    return applies.stream().map(CompletableFuture::join).toList();
  }

  private PoolRun applyPool(
      SloClass cls, Pool pool, PoolTokens.Keys keys, Context<SloClass> context) {
    Optional<String> badId =
        pool.dedicated() ? PoolNames.tenantIdProblem(pool.dedicatedTenant()) : Optional.empty();
    if (badId.isPresent()) {
      return PoolRun.held(
          pool, "InvalidName", "tenant id " + badId.get() + " (its namespace would be invalid)");
    }
    PlanRequest request = ClassPlans.request(cls, ClassPlans.demands(cls, pool.tenants()));
    CapacityPlan plan = planner.plan(request);
    String table = TenantTable.json(pool.tenants(), plan, cls.getSpec().admission);
    boolean rotating = rotating(pool.namespace(), keys);
    List<String> tokens = PoolTokens.tokens(keys, pool.namespace(), !rotating);
    boolean tableChanged =
        !table.equals(
            pools
                .table(pool.namespace())
                .map(cm -> cm.getData() == null ? null : cm.getData().get(TenantTable.FILE))
                .orElse(null));
    Deployment live = pools.deployment(pool.namespace()).orElse(null);
    // the HPA, or a KEDA ScaledObject in its place (scaling/Autoscaler)
    List<HasMetadata> desired =
        autoscaler
            .forPool(
                PoolObjects.build(new PoolObjects.Input(cls, pool, plan, table, tokens, peers)),
                cls)
            .stream()
            .map(o -> PoolObjects.floorReplicas(o, live))
            .toList();
    Optional<PoolWorkflow.Failure> failure =
        pools
            .apply(
                cls,
                desired,
                new PoolContext(context),
                ran -> metrics.poolApply(cls.getMetadata().getName(), ran))
            .or(() -> pools.applyUnmanaged(cls, desired, client));
    if (failure.isPresent()) {
      log.warn(
          "class {} pool {}: {}",
          cls.getMetadata().getName(),
          pool.namespace(),
          failure.get().message());
    }
    return new PoolRun(
        pool,
        request,
        plan,
        table,
        tokens,
        keys.fingerprint(),
        rotating,
        tableChanged,
        failure.isPresent() ? null : pools.deployment(pool.namespace()).orElse(null),
        failure
            .map(f -> f.notOwned() ? "NamespaceConflict" : PoolOutcome.APPLY_FAILED)
            .orElse(null),
        failure.map(PoolWorkflow.Failure::message).orElse(null),
        null);
  }

  /**
   * Step 2, table push: to the pods of an applied pool whose table changed, whose tenants wait, or
   * whose rotated token is not yet confirmed; the run with the pool's resulting state.
   */
  private PoolRun pushed(PoolRun run) {
    return run.applied() ? run.withState(push(run)) : run;
  }

  private PoolState push(PoolRun run) {
    Pool pool = run.pool();
    Deployment deployment = run.deployment();
    int ready =
        deployment == null
                || deployment.getStatus() == null
                || deployment.getStatus().getReadyReplicas() == null
            ? 0
            : deployment.getStatus().getReadyReplicas();
    boolean waiting =
        pool.tenants().stream().anyMatch(t -> TenantPhase.of(t) != TenantPhase.Serving);
    if (!run.tableChanged() && !waiting && !run.rotating()) {
      // stable while synced, so a new table version does not rewrite every serving tenant's status
      return new PoolState(pool.namespace(), run.plan().replicas(), ready, true, SYNCED);
    }
    if (ready == 0) {
      return new PoolState(
          pool.namespace(),
          run.plan().replicas(),
          ready,
          false,
          "no ready pod to push the table to");
    }
    TablePusher.Result pushed = pusher.push(pool.namespace(), run.table(), run.tokens());
    if (run.rotating() && pushed.firstTokenEverywhere()) {
      // every ready pod reads the new token: the next apply drops the previous one
      confirmedKey.put(pool.namespace(), run.keyFingerprint());
      log.info(
          "pool {} accepts the token of key {}; dropping the previous token",
          pool.namespace(),
          run.keyFingerprint());
    }
    if (!pushed.errors().isEmpty()) {
      metrics.tablePushFailures(pool.sloClass(), pushed.errors().size());
    }
    String message =
        pushed.complete()
            ? SYNCED
            : "table "
                + tableVersion(run.table())
                + " pushed to "
                + pushed.accepted()
                + "/"
                + pushed.readyPods()
                + " ready endpoints"
                + (pushed.errors().isEmpty() ? "" : ": " + String.join("; ", pushed.errors()));
    return new PoolState(
        pool.namespace(), run.plan().replicas(), ready, pushed.complete(), message);
  }

  /**
   * Step 3, tenant statuses: every live tenant's status from its pool's state (or why its pool is
   * held), the changed ones written concurrently. Returns the phase of every tenant whose pool was
   * applied or held, as now written; those of failed pools keep theirs.
   */
  private Map<String, TenantPhase> writeTenantStatuses(List<PoolRun> runs) {
    Map<String, TenantPhase> phases = new HashMap<>();
    List<CompletableFuture<Void>> writes = new ArrayList<>();
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    for (PoolRun run : runs) {
      if (!run.applied() && PoolOutcome.APPLY_FAILED.equals(run.heldReason())) {
        continue;
      }
      for (Tenant t : run.pool().tenants()) {
        String id = t.getMetadata().getName();
        TenantStatus status =
            run.applied()
                ? TenantStatuses.of(
                    t,
                    run.state(),
                    run.plan().admittedRps().getOrDefault(id, t.getSpec().committedRps),
                    now)
                : TenantStatuses.pending(t, run.heldReason(), run.heldMessage(), now);
        if (!TenantStatuses.same(t.getStatus(), status)) {
          writes.add(CompletableFuture.runAsync(() -> writeStatus(t, status), statusWriters));
        }
        TenantPhase phase = TenantPhase.parse(status.phase);
        phases.put(id, phase);
        if (phase == TenantPhase.Serving && TenantPhase.of(t) != TenantPhase.Serving) {
          TenancyReconcile.acceptedAt(t)
              .ifPresent(
                  a ->
                      metrics.onboarded(
                          run.pool().sloClass(),
                          run.pool().isolation(),
                          Duration.between(a, Instant.now())));
        }
      }
    }
    awaitAll(writes);
    return phases;
  }

  /**
   * Whether the pool must still list the previous key's token: a previous key exists and the pool
   * has not shown that its pods accept the current one. After a restart the pool's Secret (as the
   * informer holds it) tells: a token file that already holds the current token alone is done.
   */
  private boolean rotating(String namespace, PoolTokens.Keys keys) {
    if (keys.previous() == null || keys.fingerprint().equals(confirmedKey.get(namespace))) {
      return false;
    }
    Secret live = pools.adminSecret(namespace).orElse(null);
    String file =
        live == null
                || live.getData() == null
                || live.getData().get(Workload.ADMIN_TOKEN_KEY) == null
            ? null
            : new String(
                Base64.getDecoder().decode(live.getData().get(Workload.ADMIN_TOKEN_KEY)),
                StandardCharsets.UTF_8);
    // a pool created after the rotation never had the previous token
    if (live == null || PoolTokens.parse(file).equals(PoolTokens.tokens(keys, namespace, true))) {
      confirmedKey.put(namespace, keys.fingerprint());
      return false;
    }
    return true;
  }

  /**
   * Step 4, releases: tenants being deleted are already out of every table (Pools leaves them out);
   * drop the dedicated namespace and the finalizer.
   */
  private void releaseDeleted(SloClass cls, List<Tenant> tenants) {
    for (Tenant t : tenants) {
      if (t.getMetadata().getDeletionTimestamp() == null || !t.hasFinalizer(Tenant.FINALIZER)) {
        continue;
      }
      if (Pools.isDedicated(t) && PoolNames.tenantIdProblem(t.getMetadata().getName()).isEmpty()) {
        deleteOwnedNamespace(cls, PoolNames.dedicatedNamespace(t.getMetadata().getName()));
      }
      removeFinalizer(t);
    }
  }

  /**
   * Deletes the class's pool namespaces that no pool uses any more: those of a naming scheme before
   * {@link PoolNames} ({@code isolato-<class>}), or of a dedicated tenant whose release was missed.
   * Found through the Deployment informer (no extra read); each is deleted only when it is this
   * class's.
   */
  private void removeStrayPools(SloClass cls, Set<String> current) {
    String name = cls.getMetadata().getName();
    pools
        .deployments(name)
        .map(d -> d.getMetadata().getNamespace())
        .filter(ns -> !current.contains(ns))
        .distinct()
        .filter(ns -> deleteOwnedNamespace(cls, ns))
        .forEach(
            ns ->
                log.info(
                    "class {}: deleted pool namespace {}, no pool uses it any more", name, ns));
  }

  /** Deletes the namespace only when it is this class's (label and owner uid); never another's. */
  private boolean deleteOwnedNamespace(SloClass cls, String ns) {
    boolean deleted = false;
    Namespace live = pools.namespace(ns).orElse(null);
    if (live != null && live.getMetadata().getDeletionTimestamp() == null) {
      try {
        PoolDependent.requireOwned(live, cls);
        client.namespaces().withName(ns).delete();
        deleted = true;
      } catch (NotOwned e) {
        log.warn("not deleting namespace {}: {}", ns, e.getMessage());
      }
    }
    confirmedKey.remove(ns);
    return deleted;
  }

  private void removeFinalizer(Tenant t) {
    List<String> rest = new ArrayList<>(t.getMetadata().getFinalizers());
    rest.remove(Tenant.FINALIZER);
    String patch =
        "{\"metadata\":{\"finalizers\":"
            + client.getKubernetesSerialization().asJson(rest)
            + ",\"resourceVersion\":\""
            + t.getMetadata().getResourceVersion()
            + "\"}}";
    client
        .resources(Tenant.class)
        .inNamespace(t.getMetadata().getNamespace())
        .withName(t.getMetadata().getName())
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
  }

  /** Waits for every task; the first failure fails the reconcile (JOSDK retries it). */
  private static void awaitAll(List<? extends CompletableFuture<?>> tasks) {
    try {
      CompletableFuture.allOf(tasks.toArray(CompletableFuture[]::new)).join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  private void writeStatus(Tenant t, TenantStatus status) {
    Tenant patch = new Tenant();
    patch.getMetadata().setName(t.getMetadata().getName());
    patch.getMetadata().setNamespace(t.getMetadata().getNamespace());
    patch.setSpec(null);
    patch.setStatus(status);
    Tenant updated =
        client
            .resource(patch)
            .subresource("status")
            .patch(
                new PatchContext.Builder()
                    .withPatchType(PatchType.SERVER_SIDE_APPLY)
                    .withFieldManager(PoolObjects.FIELD_MANAGER)
                    .withForce(true)
                    .build(),
                patch);
    // the next reconcile sees this status even before the watch delivers it, and the watch
    // event of this write does not trigger another reconcile
    if (tenantSource != null) {
      tenantSource.handleRecentResourceUpdate(ResourceID.fromResource(updated), updated, t);
    }
  }

  /** Step 5, class status: the patch, or null when the status would not change. */
  private SloClass classStatus(
      SloClass cls,
      SloClassStatus.Plan plan,
      List<Tenant> tenants,
      List<PoolOutcome> outcomes,
      List<String> deletionWaitsFor,
      Instant now) {
    SloClassStatus prev = cls.getStatus() == null ? new SloClassStatus() : cls.getStatus();
    long live =
        tenants.stream().filter(t -> t.getMetadata().getDeletionTimestamp() == null).count();
    SloClassStatus next = new SloClassStatus();
    next.observedGeneration = cls.getMetadata().getGeneration();
    next.plan = plan;
    next.tenants = (int) live;
    List<PoolOutcome> held = outcomes.stream().filter(o -> o.heldReason() != null).toList();
    next.conditions =
        List.of(
            !deletionWaitsFor.isEmpty()
                ? Conditions.of(
                    prev.conditions,
                    "Ready",
                    false,
                    "DeletionWaitsForTenants",
                    DeletionWait.message(deletionWaitsFor),
                    now)
                : held.isEmpty()
                    ? Conditions.of(
                        prev.conditions,
                        "Ready",
                        true,
                        "PoolsApplied",
                        "shared pool "
                            + PoolNames.sharedNamespace(cls.getMetadata().getName())
                            + " applied",
                        now)
                    : Conditions.of(
                        prev.conditions,
                        "Ready",
                        false,
                        held.get(0).heldReason(),
                        held.stream()
                            .map(o -> o.namespace() + ": " + o.heldMessage())
                            .distinct()
                            .collect(Collectors.joining("; ")),
                        now));
    if (TenancyReconcile.sameClassStatus(prev, next)) {
      return null;
    }
    SloClass patch = new SloClass();
    patch.setMetadata(new ObjectMetaBuilder().withName(cls.getMetadata().getName()).build());
    patch.setSpec(null);
    // the calibration fields belong to POST /api/v1/calibrations: leave them out of this apply
    next.cutoffs = null;
    next.calibrationRuns = null;
    patch.setStatus(next);
    return patch;
  }

  private static String tableVersion(String tableJson) {
    int i = tableJson.indexOf("\"version\":\"");
    return i < 0 ? "?" : tableJson.substring(i + 11, tableJson.indexOf('"', i + 11));
  }

  /**
   * A deleted class (by any client) stays until its tenants are offboarded: meanwhile it keeps
   * serving them (each leaves the tables as it is deleted) and its Ready condition names them. Then
   * the last deleted tenants are released and the class goes; the garbage collector removes its
   * pools.
   */
  @Override
  public DeleteControl cleanup(SloClass cls, Context<SloClass> context) {
    List<Tenant> tenants = List.copyOf(context.getSecondaryResources(Tenant.class));
    List<String> remaining =
        DeletionWait.liveTenants(
            tenants.stream()
                .filter(t -> t.getMetadata().getDeletionTimestamp() == null)
                .map(t -> t.getMetadata().getName())
                .toList());
    if (!remaining.isEmpty()) {
      Pass pass = pass(cls, context, remaining);
      if (pass.statusPatch() != null) {
        client
            .resource(pass.statusPatch())
            .subresource("status")
            .patch(
                new PatchContext.Builder()
                    .withPatchType(PatchType.SERVER_SIDE_APPLY)
                    .withFieldManager(PoolObjects.FIELD_MANAGER)
                    .withForce(true)
                    .build(),
                pass.statusPatch());
      }
      return DeleteControl.noFinalizerRemoval()
          .rescheduleAfter(pass.recheck().orElse(CONFLICT_RECHECK));
    }
    releaseDeleted(cls, tenants);
    metrics.tenantPhases(cls.getMetadata().getName(), Map.of());
    metrics.classRemoved(cls.getMetadata().getName());
    return DeleteControl.defaultDelete();
  }

  /** Stops the status writers (after the operator stopped: no reconcile is running). */
  @Override
  public void close() {
    shutdown(statusWriters);
    shutdown(poolAppliers);
  }

  private static ExecutorService daemonPool(int threads, String name) {
    return Executors.newFixedThreadPool(
        threads,
        r -> {
          Thread th = new Thread(r, name);
          th.setDaemon(true);
          return th;
        });
  }

  private static void shutdown(ExecutorService executor) {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
