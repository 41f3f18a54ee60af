package dev.isolato.tenancy;

import dev.isolato.kube.LeanItemStore;
import dev.isolato.slo.CapacityPlan;
import dev.isolato.slo.CapacityPlanner;
import dev.isolato.slo.PlanRequest;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
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
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one SLO class: plans each of its pools (the shared pool, one per dedicated tenant) and
 * writes it as a pool resource ({@link SloPool}, brought about by the pool reconciler), then the
 * tenants' statuses from what the pools report, releases, and the class's status. Tenants and pool
 * resources map to their class, so JOSDK serialises all work on one class and a burst of tenant
 * events collapses into few reconciles (and few API writes).
 *
 * <p>One pass: {@link #planPools plan and write the pools}, {@link #writeTenantStatuses tenant
 * statuses}, {@link #releaseDeleted releases}, {@link #classStatus class status}.
 */
public class SloClassReconciler implements Reconciler<SloClass>, Cleaner<SloClass> {
  private static final Logger log = LoggerFactory.getLogger(SloClassReconciler.class);

  /** How soon to look again while a tenant waits for its pool. */
  static final Duration PENDING_RECHECK = Duration.ofMillis(500);

  /** How soon to look again at a pool held by an object Isolato does not own. */
  static final Duration CONFLICT_RECHECK = Duration.ofSeconds(10);

  private final KubernetesClient client;
  private final CapacityPlanner planner;
  private final TenancyMetrics metrics;
  private final String tenantNamespace;
  private final PoolKeys poolKeys;
  private final ImagePolicy images;
  private final NetworkPeers peers;
  private final String gateImage;
  private final ScalingChoice scaling;
  private final ServedEarly servedEarly;

  /** The tenants' informer index by class name. */
  private static final String BY_CLASS = "sloClass";

  /** The tenants' informer: the reconciler's own status writes go into its cache. */
  private InformerEventSource<Tenant, SloClass> tenantSource;

  private InformerEventSource<Secret, SloClass> keySource;
  private InformerEventSource<SloPool, SloClass> poolSource;
  private InformerEventSource<Namespace, SloClass> namespaceSource;

  /** Which autoscaler the class's pools get now (KEDA's API may come and go). */
  @FunctionalInterface
  public interface ScalingChoice {
    PoolResources.Scaling now();

    /** The CPU HPA everywhere. */
    static ScalingChoice hpaOnly() {
      return () -> new PoolResources.Scaling(false, null);
    }
  }

  public SloClassReconciler(
      KubernetesClient client,
      CapacityPlanner planner,
      TenancyMetrics metrics,
      String tenantNamespace,
      ImagePolicy images,
      NetworkPeers peers,
      ScalingChoice scaling) {
    this.client = client;
    this.planner = planner;
    this.metrics = metrics;
    this.tenantNamespace = tenantNamespace;
    this.poolKeys = new PoolKeys(client, tenantNamespace);
    this.images = images;
    this.peers = peers;
    this.gateImage = images.gateImage();
    this.scaling = scaling;
    this.servedEarly =
        new ServedEarly(this::newest, this::classTenants, this::writeStatus, metrics);
  }

  /** Told by the pool reconciler when a table is on every ready pod (the early Serving write). */
  public TableServed tableServed() {
    return servedEarly;
  }

  /** A class's tenants as this reconciler knows them; none before its watch runs. */
  private List<Tenant> classTenants(String cls) {
    return tenantSource == null ? List.of() : tenantSource.byIndex(BY_CLASS, cls);
  }

  /** A tenant by id in the newest version this reconciler knows; empty before its watch runs. */
  private Optional<Tenant> newest(String id) {
    return tenantSource == null
        ? Optional.empty()
        : tenantSource.get(new ResourceID(id, tenantNamespace));
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
        || CalibrationStatusMapper.calibrationChanged(newer, older)
        || !Objects.equals(capacityStamp(newer), capacityStamp(older))
        || !Objects.equals(contextStamp(newer), contextStamp(older));
  }

  /** The context watch's choice (its status.context figure and match): a change re-plans. */
  private static String contextStamp(SloClass c) {
    return c == null || c.getStatus() == null || c.getStatus().context == null
        ? null
        : c.getStatus().context.match + "/" + c.getStatus().context.perPodCutoffRps;
  }

  /** The verification loop's last write (its status.capacity): a change re-plans the class. */
  private static String capacityStamp(SloClass c) {
    return c == null || c.getStatus() == null || c.getStatus().capacity == null
        ? null
        : c.getStatus().capacity.verifiedAt;
  }

  @Override
  public List<EventSource<?, SloClass>> prepareEventSources(EventSourceContext<SloClass> context) {
    var tenants =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Tenant.class, SloClass.class)
                .withName("tenants")
                .withNamespaces(Set.of(tenantNamespace))
                .withItemStore(new LeanItemStore<>(CachedTenants.WHOLE))
                .withInformerListLimit(LeanItemStore.LIST_PAGE)
                .withSecondaryToPrimaryMapper(t -> Set.of(new ResourceID(t.getSpec().sloClass)))
                .build(),
            context);
    tenants.addIndexers(Map.of(BY_CLASS, t -> List.of(t.getSpec().sloClass)));
    var keys = PoolKeys.eventSource("pool-keys", tenantNamespace, context, null);
    // the class's pool resources: their status tells the tenants' statuses
    var pools =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(SloPool.class, SloClass.class)
                .withName("pools")
                .withItemStore(new LeanItemStore<>())
                .withSecondaryToPrimaryMapper(
                    p ->
                        p.getSpec() == null || p.getSpec().sloClass == null
                            ? Set.of()
                            : Set.of(new ResourceID(p.getSpec().sloClass)))
                .withOnUpdateFilter((newer, older) -> !PoolResources.sameStatus(newer, older))
                .build(),
            context);
    // the class's namespaces, so that one no pool uses any more is found (and removed) at once
    var namespaces =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Namespace.class, SloClass.class)
                .withName("pool-namespaces")
                .withLabelSelector(PoolObjects.MANAGED_BY + "=" + PoolObjects.MANAGER)
                .withSecondaryToPrimaryMapper(
                    n ->
                        n.getMetadata().getLabels() == null
                                || n.getMetadata().getLabels().get(PoolObjects.CLASS_LABEL) == null
                            ? Set.of()
                            : Set.of(
                                new ResourceID(
                                    n.getMetadata().getLabels().get(PoolObjects.CLASS_LABEL))))
                .withOnUpdateFilter((n, o) -> false)
                .build(),
            context);
    this.tenantSource = tenants;
    this.keySource = keys;
    this.poolSource = pools;
    this.namespaceSource = namespaces;
    return List.of(tenants, keys, pools, namespaces);
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
   * The class's tenants, each in its newest version this reconciler knows (its own status writes
   * included). Read through the informer's index rather than {@code context.getSecondaryResources},
   * which collects them into a set: hashing every tenant whole on each pass was the largest CPU
   * cost of a burst (JFR, docs/onboarding-profile.md).
   */
  private List<Tenant> tenantsOf(String cls, Context<SloClass> context) {
    if (tenantSource == null) {
      return List.copyOf(context.getSecondaryResources(Tenant.class));
    }
    return tenantSource.byIndex(BY_CLASS, cls).stream()
        .map(t -> tenantSource.get(ResourceID.fromResource(t)).orElse(t))
        .toList();
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
    List<Tenant> tenants = tenantsOf(name, context);
    log.debug("class {}: pass over {} tenants", name, tenants.size());
    List<Pool> classPools = Pools.of(name, tenants);
    List<PoolRun> runs;
    Optional<String> classProblem = PoolNames.classNameProblem(name).map(m -> "class name " + m);
    Optional<String> refused = classProblem.or(() -> images.problem(cls.getSpec()));
    if (refused.isPresent()) {
      // nothing is applied for a class the controller refuses; its tenants wait, saying why
      String reason = classProblem.isPresent() ? "InvalidName" : "ImageNotAllowed";
      runs = classPools.stream().map(p -> PoolRun.held(p, reason, refused.get())).toList();
    } else {
      runs = planPools(cls, classPools);
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
    // while a pool's spec is in flight the class's status waits too: its status event brings the
    // class back, and a burst then costs one class status write per settled step, not per tenant
    boolean inFlight = runs.stream().anyMatch(r -> r.applied() && r.state() == null);
    boolean hasStatus = cls.getStatus() != null && cls.getStatus().observedGeneration != null;
    return new Pass(
        inFlight && hasStatus && deletionWaitsFor.isEmpty()
            ? null
            : classStatus(cls, sharedPlan, tenants, outcomes, deletionWaitsFor, now),
        PoolOutcome.recheck(outcomes));
  }

  /**
   * One pool through the pass: its plan, whether its pool resource is held (and why), and the state
   * its tenants' statuses are computed from with the tenants that state is about (those of the spec
   * the pool reconciler last saw; null while it has yet to see the one written last: those tenants'
   * statuses wait).
   */
  private record PoolRun(
      Pool pool,
      PlanRequest request,
      CapacityPlan plan,
      String heldReason,
      String heldMessage,
      PoolState state,
      Set<String> stateOf) {
    static PoolRun held(Pool pool, String reason, String message) {
      return new PoolRun(pool, null, null, reason, message, null, Set.of());
    }

    /** A pool whose reconciler has yet to see the spec written last. */
    static PoolRun inFlight(Pool pool, PlanRequest request, CapacityPlan plan) {
      return new PoolRun(pool, request, plan, null, null, null, Set.of());
    }

    /** Whether the tenant's status can be computed now. */
    boolean knows(Tenant t) {
      return !applied() || stateOf.contains(t.getMetadata().getName());
    }

    boolean applied() {
      return heldReason == null;
    }

    PoolOutcome outcome(Map<String, TenantPhase> phases) {
      if (!applied()) {
        return PoolOutcome.APPLY_FAILED.equals(heldReason)
            ? PoolOutcome.failed(pool.namespace(), heldMessage)
            : new PoolOutcome(pool.namespace(), heldReason, heldMessage, !pool.tenants().isEmpty());
      }
      boolean pending =
          pool.tenants().stream()
              .anyMatch(
                  t ->
                      phases.getOrDefault(t.getMetadata().getName(), TenantPhase.of(t))
                          != TenantPhase.Serving);
      return new PoolOutcome(pool.namespace(), null, null, pending && state == null);
    }
  }

  /**
   * What became of one pool: a condition message when it is held (nothing applied), whether this
   * pass waits to look again for it.
   */
  record PoolOutcome(String namespace, String heldReason, String heldMessage, boolean pending) {
    static final String APPLY_FAILED = PoolResources.APPLY_FAILED;

    /** The pool's objects could not be applied; its tenants' statuses are left as they are. */
    static PoolOutcome failed(String namespace, String message) {
      return new PoolOutcome(namespace, APPLY_FAILED, message, true);
    }

    /**
     * When to reconcile again: soon while a pool failed or a pool's state is not read yet (its
     * status event usually comes first), less often for conflicts.
     */
    static Optional<Duration> recheck(List<PoolOutcome> outcomes) {
      if (outcomes.stream()
          .anyMatch(
              o ->
                  o.pending() && (o.heldReason() == null || APPLY_FAILED.equals(o.heldReason())))) {
        return Optional.of(PENDING_RECHECK);
      }
      return outcomes.stream().anyMatch(o -> o.heldReason() != null)
          ? Optional.of(CONFLICT_RECHECK)
          : Optional.empty();
    }
  }

  /**
   * Step 1, pools: each pool's plan and table, written as its pool resource when that changed; a
   * pool with an invalid namespace name, or whose resource is not this class's, is held. The pool
   * master key is made (or rotated) first: every pool's admin token derives from it.
   */
  private List<PoolRun> planPools(SloClass cls, List<Pool> classPools) {
    poolKeys.keys(
        keySource == null
            ? null
            : keySource.get(new ResourceID(PoolKeys.SECRET, tenantNamespace)).orElse(null));
    PoolResources.Scaling chosen = scaling.now();
    return classPools.stream().map(pool -> planPool(cls, pool, chosen)).toList();
  }

  private PoolRun planPool(SloClass cls, Pool pool, PoolResources.Scaling chosen) {
    Optional<String> badId =
        pool.dedicated() ? PoolNames.tenantIdProblem(pool.dedicatedTenant()) : Optional.empty();
    if (badId.isPresent()) {
      return PoolRun.held(
          pool, "InvalidName", "tenant id " + badId.get() + " (its namespace would be invalid)");
    }
    PlanRequest request = ClassPlans.request(cls, ClassPlans.demands(cls, pool.tenants()));
    CapacityPlan plan = planner.plan(request);
    String table = TenantTable.json(pool.tenants(), plan, cls.getSpec().admission);
    SloPool desired =
        PoolResources.desired(
            cls, pool, plan, request.perPodCutoffRps(), table, chosen, peers, gateImage);
    SloPool live = poolSource.get(new ResourceID(pool.namespace())).orElse(null);
    try {
      Ownership.require(live, cls);
    } catch (NotOwned e) {
      return PoolRun.held(pool, PoolResources.NAMESPACE_CONFLICT, e.getMessage());
    }
    Optional<PoolState> state = live == null ? Optional.empty() : PoolResources.state(live);
    if (!PoolResources.same(live, desired)) {
      // one spec in flight at a time: a burst of tenants collapses into the next write, made
      // when the pool reconciler has reported on this one (its status event brings the class back)
      if (live == null || state.isPresent()) {
        if (log.isTraceEnabled()) {
          // the difference renders both tables: only when asked for
          log.trace(
              "pool {}: writing, {}", pool.namespace(), PoolResources.difference(live, desired));
        }
        try {
          // before the write: the pool's pass may push it before this thread reads the answer
          servedEarly.specWritten(pool, desired.getSpec(), plan);
          write(desired, live);
        } catch (NotOwned e) {
          return PoolRun.held(pool, PoolResources.NAMESPACE_CONFLICT, e.getMessage());
        }
        log.debug("pool {}: spec written, {} tenants", pool.namespace(), pool.tenants().size());
        return PoolRun.inFlight(pool, request, plan);
      }
    }
    if (state.isEmpty()) {
      return PoolRun.inFlight(pool, request, plan);
    }
    Optional<Condition> failed = PoolResources.failure(live);
    if (failed.isPresent()) {
      return PoolRun.held(pool, failed.get().getReason(), failed.get().getMessage());
    }
    return new PoolRun(
        pool, request, plan, null, null, state.get(), Set.copyOf(live.getSpec().tenants));
  }

  /**
   * Writes a pool resource, always by server-side apply (one field manager owns every field, so a
   * field the class no longer sets is removed). A create carries a resourceVersion precondition, so
   * an existing pool the informer has not seen fails with 409, is read, and is refused unless it is
   * this class's.
   */
  private void write(SloPool desired, SloPool live) {
    SloPool written;
    if (live == null) {
      try {
        SloPool fresh = client.getKubernetesSerialization().clone(desired);
        fresh.getMetadata().setResourceVersion("1");
        written = apply(fresh);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
        SloPool existing = client.resource(desired).get();
        Ownership.require(
            existing,
            desired.getSpec().sloClass,
            desired.getMetadata().getOwnerReferences().get(0).getUid());
        written = apply(desired);
      }
      poolSource.handleRecentResourceCreate(ResourceID.fromResource(written), written);
    } else {
      written = apply(desired);
      // the next pass reads this version, not an older one the watch has yet to replace
      poolSource.handleRecentResourceUpdate(ResourceID.fromResource(written), written, live);
    }
  }

  private SloPool apply(SloPool desired) {
    return client
        .resource(desired)
        .fieldManager(PoolObjects.FIELD_MANAGER)
        .forceConflicts()
        .serverSideApply();
  }

  /**
   * Step 2, tenant statuses: every live tenant's status from its pool's state (or why its pool is
   * held). Returns the phase of every tenant whose status was computed; the tenants of a failed
   * pool, and of a pool the pool reconciler has yet to see, keep theirs.
   */
  private Map<String, TenantPhase> writeTenantStatuses(List<PoolRun> runs) {
    Map<String, TenantPhase> phases = new HashMap<>();
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    List<Runnable> writes = new ArrayList<>();
    List<Runnable> served = new ArrayList<>();
    for (PoolRun run : runs) {
      if ((!run.applied() && PoolOutcome.APPLY_FAILED.equals(run.heldReason()))
          || (run.applied() && run.state() == null)) {
        continue;
      }
      for (Tenant t : run.pool().tenants()) {
        if (!run.knows(t)) {
          continue;
        }
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
          writes.add(
              () -> {
                writeStatus(t, status);
                log.debug(
                    "tenant {}: {} -> {} written",
                    id,
                    t.getStatus() == null ? null : t.getStatus().phase,
                    status.phase);
              });
        }
        TenantPhase phase = TenantPhase.parse(status.phase);
        phases.put(id, phase);
        if (phase == TenantPhase.Serving && TenantPhase.of(t) != TenantPhase.Serving) {
          served.add(() -> metrics.onboarded(t, run.pool().sloClass(), run.pool().isolation()));
        }
      }
    }
    ParallelWrites.run(writes);
    served.forEach(Runnable::run);
    return phases;
  }

  /**
   * Step 3, releases: tenants being deleted are already out of every table (Pools leaves them out);
   * drop the dedicated pool (its resource and namespace) and the finalizer.
   */
  private void releaseDeleted(SloClass cls, List<Tenant> tenants) {
    List<Runnable> finalizers = new ArrayList<>();
    for (Tenant t : tenants) {
      if (t.getMetadata().getDeletionTimestamp() == null || !t.hasFinalizer(Tenant.FINALIZER)) {
        continue;
      }
      if (Pools.isDedicated(t) && PoolNames.tenantIdProblem(t.getMetadata().getName()).isEmpty()) {
        deletePool(cls, PoolNames.dedicatedNamespace(t.getMetadata().getName()));
      }
      finalizers.add(() -> removeFinalizer(t));
    }
    ParallelWrites.run(finalizers);
  }

  /**
   * Deletes the class's pools that no pool of it uses any more: those of a naming scheme before
   * {@link PoolNames} ({@code isolato-<class>}), or of a dedicated tenant whose release was missed.
   * Found through the pool and namespace informers (no extra read); each is deleted only when it is
   * this class's.
   */
  private void removeStrayPools(SloClass cls, Set<String> current) {
    String name = cls.getMetadata().getName();
    java.util.stream.Stream.concat(
            poolSource
                .list(p -> name.equals(p.getSpec().sloClass))
                .map(p -> p.getMetadata().getName()),
            namespaceSource
                .list(n -> name.equals(n.getMetadata().getLabels().get(PoolObjects.CLASS_LABEL)))
                .map(n -> n.getMetadata().getName()))
        .filter(ns -> !current.contains(ns))
        .distinct()
        .filter(ns -> deletePool(cls, ns))
        .forEach(
            ns -> log.info("class {}: deleted pool {}, no tenant of the class uses it", name, ns));
  }

  /**
   * Deletes a pool: its resource first (so nothing re-applies its objects), then its namespace;
   * each only when it is this class's, never another's.
   */
  private boolean deletePool(SloClass cls, String ns) {
    boolean deleted = false;
    try {
      SloPool pool = poolSource.get(new ResourceID(ns)).orElse(null);
      if (pool != null && pool.getMetadata().getDeletionTimestamp() == null) {
        Ownership.require(pool, cls);
        client.resource(pool).delete();
        servedEarly.forget(ns);
        deleted = true;
      }
      Namespace live = namespaceSource.get(new ResourceID(ns)).orElse(null);
      if (live != null && live.getMetadata().getDeletionTimestamp() == null) {
        Ownership.require(live, cls);
        client.namespaces().withName(ns).delete();
        deleted = true;
      }
    } catch (NotOwned e) {
      log.warn("not deleting pool {}: {}", ns, e.getMessage());
    }
    return deleted;
  }

  /** Drops Isolato's finalizer, on the version the informer holds (a conflict is retried). */
  private void removeFinalizer(Tenant t) {
    List<String> rest = new ArrayList<>(t.getMetadata().getFinalizers());
    rest.remove(Tenant.FINALIZER);
    Map<String, Object> patch =
        Map.of(
            "metadata",
            Map.of("finalizers", rest, "resourceVersion", t.getMetadata().getResourceVersion()));
    client
        .resources(Tenant.class)
        .inNamespace(t.getMetadata().getNamespace())
        .withName(t.getMetadata().getName())
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            client.getKubernetesSerialization().asJson(patch));
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

  /** Step 4, class status: the patch, or null when the status would not change. */
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
    List<Condition> conditions = new ArrayList<>(3);
    conditions.add(
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
    conditions.addAll(CapacityConditions.of(cls, plan, prev.conditions, now));
    next.conditions = conditions;
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

  /**
   * A deleted class (by any client) stays until its tenants are offboarded: meanwhile it keeps
   * serving them (each leaves the tables as it is deleted) and its Ready condition names them. Then
   * the last deleted tenants are released and the class goes; the garbage collector removes its
   * pools.
   */
  @Override
  public DeleteControl cleanup(SloClass cls, Context<SloClass> context) {
    List<Tenant> tenants = tenantsOf(cls.getMetadata().getName(), context);
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
}
