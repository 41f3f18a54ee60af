package dev.isolato.tenancy;

import dev.isolato.slo.CapacityPlan;
import dev.isolato.slo.CapacityPlanner;
import dev.isolato.slo.PlanRequest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
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
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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
  private static final int STATUS_WRITERS = 4;

  private final KubernetesClient client;
  private final CapacityPlanner planner;
  private final Applier applier;
  private final TablePusher pusher;
  private final TenancyMetrics metrics;
  private final String tenantNamespace;
  private final String adminToken;
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

  public SloClassReconciler(KubernetesClient client, CapacityPlanner planner, TablePusher pusher,
      TenancyMetrics metrics, String tenantNamespace, String adminToken) {
    this.client = client;
    this.planner = planner;
    this.applier = new Applier(client);
    this.pusher = pusher;
    this.metrics = metrics;
    this.tenantNamespace = tenantNamespace;
    this.adminToken = adminToken;
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
        || CalibrationStatus.calibrationChanged(newer, older);
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
    this.tenantSource = tenants;
    this.deploymentSource = deployments;
    return List.of(tenants, deployments);
  }

  @Override
  public UpdateControl<SloClass> reconcile(SloClass cls, Context<SloClass> context) {
    Timer.Sample sample = metrics.startReconcile();
    String name = cls.getMetadata().getName();
    try {
      Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
      List<Tenant> tenants = List.copyOf(context.getSecondaryResources(Tenant.class));
      boolean pending = false;
      SloClassStatus.Plan sharedPlan = null;
      for (Pool pool : Pools.of(name, tenants)) {
        PlanRequest request = ClassPlans.request(cls, ClassPlans.demands(pool.tenants()));
        CapacityPlan plan = planner.plan(request);
        pending |= reconcilePool(cls, pool, plan);
        if (!pool.dedicated()) {
          sharedPlan = ClassPlans.toStatus(plan, request);
        }
      }
      releaseDeleted(name, tenants);
      metrics.tenantPhases(name, tenants.stream().collect(Collectors.groupingBy(TenancyReconcile::phaseOf, TreeMap::new, Collectors.counting())));
      metrics.classFacts(cls);
      metrics.reconciled(sample, name, true);
      UpdateControl<SloClass> control = classStatus(cls, sharedPlan, tenants, now);
      return pending ? control.rescheduleAfter(PENDING_RECHECK) : control;
    } catch (RuntimeException e) {
      metrics.reconciled(sample, name, false);
      throw e;
    }
  }

  /** Applies a pool's objects, pushes its table when a tenant still waits, updates statuses. */
  private boolean reconcilePool(SloClass cls, Pool pool, CapacityPlan plan) {
    String table = TenantTable.json(pool.tenants(), plan, cls.getSpec().admission);
    List<HasMetadata> desired = PoolObjects.build(new PoolObjects.Input(cls, pool, plan, table, adminToken));
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
    if (applied.wrote("ConfigMap") || waiting) {
      if (ready == 0) {
        synced = false;
        syncMessage = "no ready pod to push the table to";
      } else {
        TablePusher.Result pushed = pusher.push(pool.namespace(), table, adminToken);
        synced = pushed.complete();
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
    return pending;
  }

  /**
   * Tenants being deleted are already out of every table (Pools leaves them out); drop the
   * dedicated namespace and the finalizer.
   */
  private void releaseDeleted(String sloClass, List<Tenant> tenants) {
    for (Tenant t : tenants) {
      if (t.getMetadata().getDeletionTimestamp() == null || !t.hasFinalizer(Tenant.FINALIZER)) {
        continue;
      }
      if (Pools.isDedicated(t)) {
        String ns = Pool.dedicatedNamespace(sloClass, t.getMetadata().getName());
        Namespace live = client.namespaces().withName(ns).get();
        if (live != null && live.getMetadata().getDeletionTimestamp() == null) {
          client.namespaces().withName(ns).delete();
        }
        applier.forget(ns);
      }
      removeFinalizer(t);
    }
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

  private UpdateControl<SloClass> classStatus(SloClass cls, SloClassStatus.Plan plan, List<Tenant> tenants, Instant now) {
    SloClassStatus prev = cls.getStatus() == null ? new SloClassStatus() : cls.getStatus();
    long live = tenants.stream().filter(t -> t.getMetadata().getDeletionTimestamp() == null).count();
    SloClassStatus next = new SloClassStatus();
    next.observedGeneration = cls.getMetadata().getGeneration();
    next.plan = plan;
    next.tenants = (int) live;
    next.conditions = List.of(Conditions.of(prev.conditions, "Ready", true, "PoolsApplied",
        "shared pool " + Pool.sharedNamespace(cls.getMetadata().getName()) + " applied", now));
    if (TenancyReconcile.sameClassStatus(prev, next)) {
      return UpdateControl.noUpdate();
    }
    SloClass patch = new SloClass();
    patch.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(cls.getMetadata().getName()).build());
    patch.setSpec(null);
    // the calibration fields belong to POST /api/v1/calibrations: leave them out of this apply
    next.cutoffs = null;
    next.calibrationRuns = null;
    patch.setStatus(next);
    return UpdateControl.patchStatus(patch);
  }

  private static String tableVersion(String tableJson) {
    int i = tableJson.indexOf("\"version\":\"");
    return i < 0 ? "?" : tableJson.substring(i + 11, tableJson.indexOf('"', i + 11));
  }

  /** A deleted class leaves its tenants Pending; their finalizers go so they can be deleted. */
  @Override
  public DeleteControl cleanup(SloClass cls, Context<SloClass> context) {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    for (Tenant t : context.getSecondaryResources(Tenant.class)) {
      if (t.getMetadata().getDeletionTimestamp() != null && t.hasFinalizer(Tenant.FINALIZER)) {
        removeFinalizer(t);
      } else if (t.getMetadata().getDeletionTimestamp() == null) {
        writeStatus(t, TenantStatuses.pending(t, "SloClass " + cls.getMetadata().getName() + " was deleted", now));
      }
    }
    metrics.tenantPhases(cls.getMetadata().getName(), Map.of());
    metrics.classRemoved(cls.getMetadata().getName());
    return DeleteControl.defaultDelete();
  }
}
