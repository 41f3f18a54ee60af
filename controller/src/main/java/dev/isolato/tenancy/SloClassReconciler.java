package dev.isolato.tenancy;

import dev.isolato.slo.CapacityPlan;
import dev.isolato.slo.CapacityPlanner;
import dev.isolato.slo.PlanRequest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
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
import io.micrometer.core.instrument.Timer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
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
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one SLO class: its shared pool and the pools of its dedicated tenants, the
 * tenants' statuses and finalizers, and the class's status. Tenants and Deployments map to
 * their class, so JOSDK serialises all work on one class and a burst of tenant events
 * collapses into few reconciles (and few API writes).
 */
public class SloClassReconciler implements Reconciler<SloClass>, Cleaner<SloClass> {
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

  private final KubernetesClient client;
  private final CapacityPlanner planner;
  private final Applier applier;
  private final TablePusher pusher;
  private final TenancyMetrics metrics;
  private final String tenantNamespace;
  private final PoolKeys poolKeys;
  private final ImagePolicy images;
  private final NetworkPeers peers;
  /**
   * Per pool namespace, the fingerprint of the master key whose token every ready pod has
   * accepted: such a pool's token file no longer lists the previous key's token.
   */
  private final Map<String, String> confirmedKey = new ConcurrentHashMap<>();
  /**
   * Tenant status writes of one reconcile go out concurrently: after a burst, a reconcile
   * serves several new tenants at once and sequential round trips would add up.
   */
  private final ExecutorService statusWriters = Executors.newFixedThreadPool(STATUS_WRITERS, r -> {
    Thread th = new Thread(r, "isolato-status-writer");
    th.setDaemon(true);
    return th;
  });
  /** The informers of prepareEventSources: the reconciler's own writes go into their caches. */
  private InformerEventSource<Tenant, SloClass> tenantSource;
  private InformerEventSource<Deployment, SloClass> deploymentSource;
  private InformerEventSource<Secret, SloClass> keySource;

  public SloClassReconciler(KubernetesClient client, CapacityPlanner planner, TablePusher pusher,
      TenancyMetrics metrics, String tenantNamespace, ImagePolicy images, NetworkPeers peers) {
    this.client = client;
    this.planner = planner;
    this.applier = new Applier(client);
    this.pusher = pusher;
    this.metrics = metrics;
    this.tenantNamespace = tenantNamespace;
    this.poolKeys = new PoolKeys(client, tenantNamespace);
    this.images = images;
    this.peers = peers;
  }

  /**
   * Which updates of a class trigger a reconcile: spec changes (generation), deletion, finalizer
   * changes, and a new calibration (status written by the API; the reconciler's own status
   * writes do not count). Registered with generation awareness off, which alone would miss
   * the calibration.
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
    var tenants = new InformerEventSource<>(InformerEventSourceConfiguration.from(Tenant.class, SloClass.class)
        .withName("tenants")
        .withNamespaces(Set.of(tenantNamespace))
        .withSecondaryToPrimaryMapper(t -> Set.of(new ResourceID(t.getSpec().sloClass)))
        .build(), context);
    var deployments = new InformerEventSource<>(InformerEventSourceConfiguration.from(Deployment.class, SloClass.class)
        .withName("deployments")
        .withWatchAllNamespaces()
        .withLabelSelector(PoolObjects.MANAGED_BY + "=" + PoolObjects.MANAGER)
        .withSecondaryToPrimaryMapper(d -> Set.of(new ResourceID(d.getMetadata().getLabels().get(PoolObjects.CLASS_LABEL))))
        .build(), context);
    // a rotated (or re-created) master key concerns every class
    var keys = new InformerEventSource<>(InformerEventSourceConfiguration.from(Secret.class, SloClass.class)
        .withName("pool-keys")
        .withNamespaces(Set.of(tenantNamespace))
        .withLabelSelector(PoolKeys.ROLE_LABEL + "=" + PoolKeys.ROLE)
        .withSecondaryToPrimaryMapper(k -> context.getPrimaryCache().list().map(ResourceID::fromResource).collect(Collectors.toSet()))
        .build(), context);
    this.tenantSource = tenants;
    this.deploymentSource = deployments;
    this.keySource = keys;
    return List.of(tenants, deployments, keys);
  }

  @Override
  public UpdateControl<SloClass> reconcile(SloClass cls, Context<SloClass> context) {
    Run run = run(cls, context, List.of());
    UpdateControl<SloClass> control = run.statusPatch() == null ? UpdateControl.noUpdate() : UpdateControl.patchStatus(run.statusPatch());
    return run.recheck().map(control::rescheduleAfter).orElse(control);
  }

  /** What one pass over a class produced: its status patch (null: unchanged) and when to look again. */
  private record Run(SloClass statusPatch, Optional<Duration> recheck) {}

  /**
   * One pass over a class: every pool applied (or held), tenants' statuses, released tenants.
   * {@code deletionWaitsFor} names the live tenants a deleted class waits for (empty otherwise).
   */
  private Run run(SloClass cls, Context<SloClass> context, List<String> deletionWaitsFor) {
    Timer.Sample sample = metrics.startReconcile();
    String name = cls.getMetadata().getName();
    try {
      Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
      List<Tenant> tenants = List.copyOf(context.getSecondaryResources(Tenant.class));
      SloClassStatus.Plan sharedPlan = null;
      List<PoolOutcome> outcomes = new ArrayList<>();
      Optional<String> refused = PoolNames.classNameProblem(name).map(m -> "class name " + m)
          .or(() -> images.problem(cls.getSpec()));
      if (refused.isPresent()) {
        // nothing is applied for a class the controller refuses; its tenants wait, saying why
        String reason = PoolNames.classNameProblem(name).isPresent() ? "InvalidName" : "ImageNotAllowed";
        Pools.of(name, tenants).forEach(pool -> hold(pool, reason, refused.get()));
        outcomes.add(new PoolOutcome(PoolNames.sharedNamespace(name), reason, refused.get(), false, false));
      } else {
        PoolTokens.Keys keys = poolKeys.keys(keySource == null ? null
            : keySource.get(new ResourceID(PoolKeys.SECRET, tenantNamespace)).orElse(null));
        List<Pool> pools = Pools.of(name, tenants);
        for (Pool pool : pools) {
          Optional<String> badId = pool.dedicated() ? PoolNames.tenantIdProblem(pool.dedicatedTenant()) : Optional.empty();
          if (badId.isPresent()) {
            outcomes.add(hold(pool, "InvalidName", "tenant id " + badId.get() + " (its namespace would be invalid)"));
            continue;
          }
          PlanRequest request = ClassPlans.request(cls, ClassPlans.demands(pool.tenants()));
          CapacityPlan plan = planner.plan(request);
          try {
            outcomes.add(reconcilePool(cls, pool, plan, keys));
          } catch (Applier.NotOwned e) {
            log.warn("class {} pool {}: {}", name, pool.namespace(), e.getMessage());
            outcomes.add(hold(pool, "NamespaceConflict", e.getMessage()));
          } catch (KubernetesClientException e) {
            // e.g. its namespace was deleted by hand and still terminates: the other pools and
            // the tenants' releases go on; this pool is re-read from scratch and retried soon
            log.warn("class {} pool {}: {}", name, pool.namespace(), e.getMessage());
            applier.forget(pool.namespace());
            outcomes.add(PoolOutcome.failed(pool.namespace(), "HTTP " + e.getCode() + " " + abbreviate(e.getMessage())));
          }
          if (!pool.dedicated()) {
            sharedPlan = ClassPlans.toStatus(plan, request);
          }
        }
        removeStrayPools(cls, pools.stream().map(Pool::namespace).collect(Collectors.toSet()));
      }
      releaseDeleted(cls, tenants);
      metrics.tenantPhases(name, tenants.stream().collect(Collectors.groupingBy(TenancyReconcile::phaseOf, TreeMap::new, Collectors.counting())));
      metrics.classFacts(cls);
      metrics.reconciled(sample, name, true);
      return new Run(classStatus(cls, sharedPlan, tenants, outcomes, deletionWaitsFor, now), PoolOutcome.recheck(outcomes));
    } catch (RuntimeException e) {
      metrics.reconciled(sample, name, false);
      throw e;
    }
  }

  /**
   * What became of one pool: a condition message when it is held (nothing applied), whether
   * tenants still wait, whether its pods have yet to accept a rotated token.
   */
  record PoolOutcome(String namespace, String heldReason, String heldMessage, boolean pending, boolean rotating) {
    static final String APPLY_FAILED = "ApplyFailed";

    /** The pool's objects could not be applied; its tenants' statuses are left as they are. */
    static PoolOutcome failed(String namespace, String message) {
      return new PoolOutcome(namespace, APPLY_FAILED, message, true, false);
    }

    /** When to reconcile again: soon while tenants wait or a pool failed, less often for rotations and conflicts. */
    static Optional<Duration> recheck(List<PoolOutcome> outcomes) {
      if (outcomes.stream().anyMatch(o -> o.pending() && (o.heldReason() == null || APPLY_FAILED.equals(o.heldReason())))) {
        return Optional.of(PENDING_RECHECK);
      }
      if (outcomes.stream().anyMatch(PoolOutcome::rotating)) {
        return Optional.of(ROTATION_RECHECK);
      }
      return outcomes.stream().anyMatch(o -> o.heldReason() != null) ? Optional.of(CONFLICT_RECHECK) : Optional.empty();
    }
  }

  /** Nothing is applied for the pool; its tenants wait with {@code message}. */
  private PoolOutcome hold(Pool pool, String reason, String message) {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    List<CompletableFuture<Void>> writes = new ArrayList<>();
    for (Tenant t : pool.tenants()) {
      TenantStatus status = TenantStatuses.pending(t, reason, message, now);
      if (!TenantStatuses.same(t.getStatus(), status)) {
        writes.add(CompletableFuture.runAsync(() -> writeStatus(t, status), statusWriters));
      }
    }
    awaitAll(writes);
    return new PoolOutcome(pool.namespace(), reason, message, !pool.tenants().isEmpty(), false);
  }

  /**
   * Applies a pool's objects, pushes its table when a tenant still waits or a rotated token is
   * not yet confirmed, updates statuses.
   */
  private PoolOutcome reconcilePool(SloClass cls, Pool pool, CapacityPlan plan, PoolTokens.Keys keys) {
    String table = TenantTable.json(pool.tenants(), plan, cls.getSpec().admission);
    boolean rotating = rotating(pool.namespace(), keys);
    List<String> tokens = PoolTokens.tokens(keys, pool.namespace(), !rotating);
    List<HasMetadata> desired = PoolObjects.build(new PoolObjects.Input(cls, pool, plan, table, tokens, peers));
    Deployment cachedDeployment = deploymentSource.get(new ResourceID(Workload.NAME, pool.namespace())).orElse(null);
    Applier.Result applied = applier.apply(desired, d -> d instanceof Deployment ? cachedDeployment : null);
    if (!applied.written().isEmpty()) {
      log.info("class {} pool {}: applied {}", pool.sloClass(), pool.namespace(), applied.written());
    }
    Deployment deployment = applied.get("Deployment", Deployment.class);
    if (applied.wrote("Deployment")) {
      if (cachedDeployment == null) {
        deploymentSource.handleRecentResourceCreate(ResourceID.fromResource(deployment), deployment);
      } else {
        deploymentSource.handleRecentResourceUpdate(ResourceID.fromResource(deployment), deployment, cachedDeployment);
      }
    }
    int ready = deployment.getStatus() == null || deployment.getStatus().getReadyReplicas() == null
        ? 0 : deployment.getStatus().getReadyReplicas();
    boolean waiting = pool.tenants().stream().anyMatch(t -> !TenantStatuses.SERVING.equals(TenancyReconcile.phaseOf(t)));
    boolean synced = true;
    // stable while synced, so a new table version does not rewrite every serving tenant's status
    String syncMessage = SYNCED;
    if (applied.wrote("ConfigMap") || waiting || rotating) {
      if (ready == 0) {
        synced = false;
        syncMessage = "no ready pod to push the table to";
      } else {
        TablePusher.Result pushed = pusher.push(pool.namespace(), table, tokens);
        synced = pushed.complete();
        if (rotating && pushed.firstTokenEverywhere()) {
          // every ready pod reads the new token: the next apply drops the previous one
          confirmedKey.put(pool.namespace(), keys.fingerprint());
          log.info("pool {} accepts the token of key {}; dropping the previous token", pool.namespace(), keys.fingerprint());
        }
        if (!pushed.errors().isEmpty()) {
          metrics.tablePushFailures(pool.sloClass(), pushed.errors().size());
        }
        syncMessage = synced ? SYNCED
            : "table " + tableVersion(table) + " pushed to " + pushed.accepted() + "/" + pushed.readyPods() + " ready endpoints"
                + (pushed.errors().isEmpty() ? "" : ": " + String.join("; ", pushed.errors()));
      }
    }
    PoolState state = new PoolState(pool.namespace(), plan.replicas(), ready, synced, syncMessage);
    // a tenant is served from the moment its table reached the pods, not from the reconcile's start
    Instant observed = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    boolean pending = false;
    List<CompletableFuture<Void>> writes = new ArrayList<>();
    for (Tenant t : pool.tenants()) {
      String id = t.getMetadata().getName();
      TenantStatus status = TenantStatuses.of(t, state, plan.admittedRps().getOrDefault(id, t.getSpec().committedRps), observed);
      if (!TenantStatuses.same(t.getStatus(), status)) {
        writes.add(CompletableFuture.runAsync(() -> writeStatus(t, status), statusWriters));
      }
      pending |= !TenantStatuses.SERVING.equals(status.phase);
      if (TenantStatuses.SERVING.equals(status.phase) && !TenantStatuses.SERVING.equals(TenancyReconcile.phaseOf(t))) {
        TenancyReconcile.acceptedAt(t).ifPresent(a -> metrics.onboarded(pool.sloClass(), pool.isolation(), Duration.between(a, Instant.now())));
      }
    }
    awaitAll(writes);
    return new PoolOutcome(pool.namespace(), null, null, pending, rotating);
  }

  /**
   * Whether the pool must still list the previous key's token: a previous key exists and the
   * pool has not shown that its pods accept the current one. After a restart the live Secret
   * tells: a pool whose token file already holds the current token alone is done.
   */
  private boolean rotating(String namespace, PoolTokens.Keys keys) {
    if (keys.previous() == null || keys.fingerprint().equals(confirmedKey.get(namespace))) {
      return false;
    }
    Secret live = client.secrets().inNamespace(namespace).withName(Workload.ADMIN_SECRET).get();
    String file = live == null || live.getData() == null || live.getData().get(Workload.ADMIN_TOKEN_KEY) == null ? null
        : new String(Base64.getDecoder().decode(live.getData().get(Workload.ADMIN_TOKEN_KEY)), StandardCharsets.UTF_8);
    // a pool created after the rotation never had the previous token
    if (live == null || PoolTokens.parse(file).equals(PoolTokens.tokens(keys, namespace, true))) {
      confirmedKey.put(namespace, keys.fingerprint());
      return false;
    }
    return true;
  }

  /**
   * Tenants being deleted are already out of every table (Pools leaves them out); drop the
   * dedicated namespace and the finalizer.
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
   * Deletes the class's pool namespaces that no pool uses any more: those of a naming scheme
   * before {@link PoolNames} ({@code isolato-<class>}), or of a dedicated tenant whose release
   * was missed. Found through the Deployment informer (no extra read); each is deleted only
   * when it is this class's.
   */
  private void removeStrayPools(SloClass cls, Set<String> current) {
    if (deploymentSource == null) {
      return;
    }
    String name = cls.getMetadata().getName();
    deploymentSource.list(d -> name.equals(d.getMetadata().getLabels().get(PoolObjects.CLASS_LABEL))
            && !current.contains(d.getMetadata().getNamespace()))
        .map(d -> d.getMetadata().getNamespace()).distinct()
        .filter(ns -> deleteOwnedNamespace(cls, ns))
        .forEach(ns -> log.info("class {}: deleted pool namespace {}, no pool uses it any more", name, ns));
  }

  /** Deletes the namespace only when it is this class's (label and owner uid); never another's. */
  private boolean deleteOwnedNamespace(SloClass cls, String ns) {
    boolean deleted = false;
    Namespace live = client.namespaces().withName(ns).get();
    if (live != null && live.getMetadata().getDeletionTimestamp() == null) {
      List<String> owners = live.getMetadata().getOwnerReferences() == null ? List.of()
          : live.getMetadata().getOwnerReferences().stream().map(o -> o.getUid()).toList();
      Optional<String> conflict = Ownership.conflict("Namespace", ns, live.getMetadata().getLabels(), owners,
          cls.getMetadata().getName(), cls.getMetadata().getUid());
      if (conflict.isPresent()) {
        log.warn("not deleting namespace {}: {}", ns, conflict.get());
      } else {
        client.namespaces().withName(ns).delete();
        deleted = true;
      }
    }
    applier.forget(ns);
    confirmedKey.remove(ns);
    return deleted;
  }

  private void removeFinalizer(Tenant t) {
    List<String> rest = new ArrayList<>(t.getMetadata().getFinalizers());
    rest.remove(Tenant.FINALIZER);
    String patch = "{\"metadata\":{\"finalizers\":" + client.getKubernetesSerialization().asJson(rest)
        + ",\"resourceVersion\":\"" + t.getMetadata().getResourceVersion() + "\"}}";
    client.resources(Tenant.class).inNamespace(t.getMetadata().getNamespace()).withName(t.getMetadata().getName())
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
  }

  /** Waits for every write; the first failure fails the reconcile (JOSDK retries it). */
  private static void awaitAll(List<CompletableFuture<Void>> writes) {
    try {
      CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  private void writeStatus(Tenant t, TenantStatus status) {
    if (TenantStatuses.same(t.getStatus(), status)) {
      return;
    }
    Tenant patch = new Tenant();
    patch.getMetadata().setName(t.getMetadata().getName());
    patch.getMetadata().setNamespace(t.getMetadata().getNamespace());
    patch.setSpec(null);
    patch.setStatus(status);
    Tenant updated = client.resource(patch).subresource("status").patch(
        new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
            .withFieldManager(Applier.FIELD_MANAGER).withForce(true).build(), patch);
    // the next reconcile sees this status even before the watch delivers it, and the watch
    // event of this write does not trigger another reconcile
    if (tenantSource != null) {
      tenantSource.handleRecentResourceUpdate(ResourceID.fromResource(updated), updated, t);
    }
  }

  /** The class status patch, or null when the status would not change. */
  private SloClass classStatus(SloClass cls, SloClassStatus.Plan plan, List<Tenant> tenants,
      List<PoolOutcome> outcomes, List<String> deletionWaitsFor, Instant now) {
    SloClassStatus prev = cls.getStatus() == null ? new SloClassStatus() : cls.getStatus();
    long live = tenants.stream().filter(t -> t.getMetadata().getDeletionTimestamp() == null).count();
    SloClassStatus next = new SloClassStatus();
    next.observedGeneration = cls.getMetadata().getGeneration();
    next.plan = plan;
    next.tenants = (int) live;
    List<PoolOutcome> held = outcomes.stream().filter(o -> o.heldReason() != null).toList();
    next.conditions = List.of(!deletionWaitsFor.isEmpty()
        ? Conditions.of(prev.conditions, "Ready", false, "DeletionWaitsForTenants", DeletionWait.message(deletionWaitsFor), now)
        : held.isEmpty()
        ? Conditions.of(prev.conditions, "Ready", true, "PoolsApplied",
            "shared pool " + PoolNames.sharedNamespace(cls.getMetadata().getName()) + " applied", now)
        : Conditions.of(prev.conditions, "Ready", false, held.get(0).heldReason(),
            held.stream().map(o -> o.namespace() + ": " + o.heldMessage()).distinct().collect(Collectors.joining("; ")), now));
    if (TenancyReconcile.sameClassStatus(prev, next)) {
      return null;
    }
    SloClass patch = new SloClass();
    patch.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(cls.getMetadata().getName()).build());
    patch.setSpec(null);
    // the calibration fields belong to POST /api/v1/calibrations: leave them out of this apply
    next.cutoffs = null;
    next.calibrationRuns = null;
    patch.setStatus(next);
    return patch;
  }

  private static String abbreviate(String s) {
    return s == null ? "" : s.length() > 300 ? s.substring(0, 300) + "…" : s;
  }

  private static String tableVersion(String tableJson) {
    int i = tableJson.indexOf("\"version\":\"");
    return i < 0 ? "?" : tableJson.substring(i + 11, tableJson.indexOf('"', i + 11));
  }

  /**
   * A deleted class (by any client) stays until its tenants are offboarded: meanwhile it keeps
   * serving them (each leaves the tables as it is deleted) and its Ready condition names them.
   * Then the last deleted tenants are released and the class goes; the garbage collector
   * removes its pools.
   */
  @Override
  public DeleteControl cleanup(SloClass cls, Context<SloClass> context) {
    List<Tenant> tenants = List.copyOf(context.getSecondaryResources(Tenant.class));
    List<String> remaining = DeletionWait.liveTenants(tenants.stream()
        .filter(t -> t.getMetadata().getDeletionTimestamp() == null).map(t -> t.getMetadata().getName()).toList());
    if (!remaining.isEmpty()) {
      Run run = run(cls, context, remaining);
      if (run.statusPatch() != null) {
        client.resource(run.statusPatch()).subresource("status").patch(new PatchContext.Builder()
            .withPatchType(PatchType.SERVER_SIDE_APPLY).withFieldManager(Applier.FIELD_MANAGER).withForce(true).build(),
            run.statusPatch());
      }
      return DeleteControl.noFinalizerRemoval().rescheduleAfter(run.recheck().orElse(CONFLICT_RECHECK));
    }
    releaseDeleted(cls, tenants);
    metrics.tenantPhases(cls.getMetadata().getName(), Map.of());
    metrics.classRemoved(cls.getMetadata().getName());
    return DeleteControl.defaultDelete();
  }
}
