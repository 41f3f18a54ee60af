package dev.isolato.tenancy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceUtils;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Workflow;
import io.javaoperatorsdk.operator.processing.dependent.workflow.WorkflowBuilder;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The objects of one pool as a workflow of {@link PoolDependent}s: the namespace and the
 * PriorityClass first, then the namespace's guards (quota, limits, network policies) and the
 * workload's inputs, the Deployment and Service, the autoscaler last. A failed object stops only
 * what depends on it; the class reconciler runs the workflow once per pool, so one pool's failure
 * leaves the other pools alone.
 */
final class PoolWorkflow {
  private final PoolDependent<Namespace> namespace = new PoolDependent<>(Namespace.class, null);
  private final PoolDependent<PriorityClass> priorityClass =
      new PoolDependent<>(PriorityClass.class, null);
  private final PoolDependent<ResourceQuota> quota = new PoolDependent<>(ResourceQuota.class, null);
  private final PoolDependent<LimitRange> limits = new PoolDependent<>(LimitRange.class, null);
  private final PoolDependent<NetworkPolicy> denyAll =
      new PoolDependent<>(NetworkPolicy.class, PoolObjects.DENY_ALL_POLICY);
  private final PoolDependent<NetworkPolicy> allowService =
      new PoolDependent<>(NetworkPolicy.class, PoolObjects.ALLOW_POLICY);
  private final PoolDependent<Secret> adminSecret = new PoolDependent<>(Secret.class, null);
  private final PoolDependent<ConfigMap> table = new PoolDependent<>(ConfigMap.class, null);
  private final PoolDependent<Deployment> deployment = new PoolDependent<>(Deployment.class, null);
  private final PoolDependent<Service> service = new PoolDependent<>(Service.class, null);
  private final PoolDependent<HorizontalPodAutoscaler> autoscaler =
      new PoolDependent<>(HorizontalPodAutoscaler.class, null);
  private final PoolDependent<PriorityClass> fillerPriorityClass =
      PoolDependent.filler(PriorityClass.class);
  private final PoolDependent<Deployment> filler = PoolDependent.filler(Deployment.class);
  private final Workflow<SloClass> workflow =
      new WorkflowBuilder<SloClass>()
          .addDependentResource(namespace)
          .addDependentResource(priorityClass)
          .addDependentResourceAndConfigure(quota)
          .dependsOn(namespace)
          .addDependentResourceAndConfigure(limits)
          .dependsOn(namespace)
          .addDependentResourceAndConfigure(denyAll)
          .dependsOn(namespace)
          .addDependentResourceAndConfigure(allowService)
          .dependsOn(namespace)
          .addDependentResourceAndConfigure(adminSecret)
          .dependsOn(namespace)
          .addDependentResourceAndConfigure(table)
          .dependsOn(namespace)
          .addDependentResourceAndConfigure(deployment)
          .dependsOn(priorityClass, quota, limits, denyAll, allowService, adminSecret, table)
          .addDependentResourceAndConfigure(service)
          .dependsOn(namespace)
          .addDependentResourceAndConfigure(autoscaler)
          .dependsOn(deployment, service)
          // the filler only next to a running class: after the class's own Deployment
          .addDependentResourceAndConfigure(fillerPriorityClass)
          .addDependentResourceAndConfigure(filler)
          .dependsOn(fillerPriorityClass, deployment)
          .withThrowExceptionFurther(false)
          .build();

  private final List<PoolDependent<?>> dependents =
      List.of(
          namespace,
          priorityClass,
          quota,
          limits,
          denyAll,
          allowService,
          adminSecret,
          table,
          deployment,
          service,
          autoscaler,
          fillerPriorityClass,
          filler);

  /**
   * Per pool namespace, what its last apply in full left: the desired objects and the version of
   * each that the workflow matched or wrote ({@link PoolDependent#VERIFIED}). A pass that wants the
   * same objects while the informers still hold every one at that version skips the workflow: while
   * pods start, the class is re-checked every 500 ms, and each pass re-ran every pool's workflow
   * (copies and server-side-apply matching of a dozen objects) only to find nothing to do. A change
   * of any object (an edit, a deletion) is a new version, so drift is still repaired, also when it
   * lands while the workflow runs (the informers' versions read afterwards could already include
   * it: PoolDriftIT saw a stale data key kept that way).
   */
  private final Map<String, Applied> applied = new ConcurrentHashMap<>();

  private record Applied(List<HasMetadata> desired, List<String> versions) {}

  /** The informers of every pool object kind. */
  List<EventSource<?, SloClass>> eventSources(EventSourceContext<SloClass> context) {
    return EventSourceUtils.eventSourcesFromWorkflow(context, workflow);
  }

  /** Why a pool's objects could not be applied: held (not Isolato's) or failed (retried soon). */
  record Failure(boolean notOwned, String message) {}

  /**
   * Brings the pool's objects to {@code desired} (in any order; the workflow orders them). Returns
   * why that failed, or empty; exceptions other than refusals and API errors are thrown. {@code
   * ran} is told whether the workflow ran (false: the objects were unchanged since the pool's last
   * apply in full, see {@link #applied}).
   */
  Optional<Failure> apply(
      SloClass cls, List<HasMetadata> desired, Context<SloClass> context, Consumer<Boolean> ran) {
    String pool = namespaceOf(desired);
    Applied last = pool == null ? null : applied.get(pool);
    if (last != null && last.desired().equals(desired)) {
      List<String> versions = liveVersions(desired);
      if (!versions.contains(null) && versions.equals(last.versions())) {
        ran.accept(false);
        return Optional.empty();
      }
    }
    ran.accept(true);
    Map<String, String> verified = new ConcurrentHashMap<>();
    context.managedWorkflowAndDependentResourceContext().put(PoolDependent.VERIFIED, verified);
    Optional<Failure> failure = applyAll(cls, desired, context);
    if (pool != null) {
      if (failure.isEmpty()) {
        applied.put(
            pool,
            new Applied(
                desired,
                desired.stream().map(o -> verified.get(PoolDependent.versionKey(o))).toList()));
      } else {
        applied.remove(pool);
      }
    }
    return failure;
  }

  /** The resourceVersion the informers hold of each object (null: none, or no informer). */
  private List<String> liveVersions(List<HasMetadata> desired) {
    return desired.stream()
        .map(
            o ->
                dependents.stream()
                    .filter(d -> d.holds(o))
                    .findFirst()
                    .flatMap(
                        d -> d.cached(o.getMetadata().getNamespace(), o.getMetadata().getName()))
                    .map(live -> live.getMetadata().getResourceVersion())
                    .orElse(null))
        .toList();
  }

  private static String namespaceOf(List<HasMetadata> desired) {
    return desired.stream()
        .filter(Namespace.class::isInstance)
        .findFirst()
        .map(n -> n.getMetadata().getName())
        .orElse(null);
  }

  private Optional<Failure> applyAll(
      SloClass cls, List<HasMetadata> desired, Context<SloClass> context) {
    context.managedWorkflowAndDependentResourceContext().put(PoolDependent.DESIRED, desired);
    var result = workflow.reconcile(cls, context);
    if (!result.erroredDependentsExist()) {
      return retireFiller(cls, desired, context.getClient());
    }
    List<Throwable> errors =
        result.getErroredDependents().values().stream().map(PoolWorkflow::root).toList();
    Optional<Failure> refusal =
        errors.stream()
            .filter(NotOwned.class::isInstance)
            .findFirst()
            .map(e -> new Failure(true, e.getMessage()));
    if (refusal.isPresent()) {
      return refusal;
    }
    Optional<Failure> apiError =
        errors.stream()
            .filter(KubernetesClientException.class::isInstance)
            .map(KubernetesClientException.class::cast)
            .findFirst()
            .map(e -> new Failure(false, "HTTP " + e.getCode() + " " + abbreviate(e.getMessage())));
    if (apiError.isPresent()) {
      return apiError;
    }
    result.throwAggregateExceptionIfErrorsPresent();
    return Optional.empty();
  }

  /**
   * Deletes the pool's filler, and the class's filler PriorityClass, when the desired objects leave
   * them out (the class opted out of the filler or of headroom): only Isolato's copies the
   * informers hold, and only when they are this class's.
   */
  private Optional<Failure> retireFiller(
      SloClass cls, List<HasMetadata> desired, KubernetesClient client) {
    if (desired.stream().anyMatch(PoolObjects::isFiller)) {
      return Optional.empty();
    }
    String namespace = namespaceOf(desired);
    List<HasMetadata> stale =
        Stream.concat(
                namespace == null
                    ? Stream.<HasMetadata>empty()
                    : filler.cached(namespace, Workload.FILLER_NAME).stream(),
                fillerPriorityClass
                    .cached(null, PoolNames.fillerPriorityClass(cls.getMetadata().getName()))
                    .stream())
            .filter(o -> o.getMetadata().getDeletionTimestamp() == null)
            .toList();
    try {
      for (HasMetadata o : stale) {
        PoolDependent.requireOwned(o, cls);
        client.resource(o).delete();
      }
    } catch (NotOwned e) {
      return Optional.of(new Failure(true, e.getMessage()));
    } catch (KubernetesClientException e) {
      return Optional.of(
          new Failure(false, "HTTP " + e.getCode() + " " + abbreviate(e.getMessage())));
    }
    return Optional.empty();
  }

  /**
   * Desired objects of kinds the workflow has no dependent for (a KEDA ScaledObject: its CRD may be
   * absent, so no informer can be set up for it at start), applied server-side when their spec or
   * labels differ from the live object's; never someone else's.
   */
  Optional<Failure> applyUnmanaged(
      SloClass cls, List<HasMetadata> desired, KubernetesClient client) {
    for (HasMetadata o : desired) {
      if (!(o instanceof GenericKubernetesResource wanted)) {
        continue;
      }
      try {
        GenericKubernetesResource live = client.resource(wanted).get();
        PoolDependent.requireOwned(live, cls);
        if (live == null || !same(client, live, wanted)) {
          client
              .resource(wanted)
              .fieldManager(PoolObjects.FIELD_MANAGER)
              .forceConflicts()
              .serverSideApply();
        }
      } catch (NotOwned e) {
        return Optional.of(new Failure(true, e.getMessage()));
      } catch (KubernetesClientException e) {
        return Optional.of(
            new Failure(false, "HTTP " + e.getCode() + " " + abbreviate(e.getMessage())));
      }
    }
    return Optional.empty();
  }

  /** Same spec, and every wanted label present (KEDA adds labels of its own). */
  private static boolean same(
      KubernetesClient client, GenericKubernetesResource live, GenericKubernetesResource wanted) {
    var json = client.getKubernetesSerialization();
    Map<String, String> liveLabels =
        live.getMetadata().getLabels() == null ? Map.of() : live.getMetadata().getLabels();
    Map<String, String> wantedLabels =
        wanted.getMetadata().getLabels() == null ? Map.of() : wanted.getMetadata().getLabels();
    return liveLabels.entrySet().containsAll(wantedLabels.entrySet())
        && json.convertValue(live.getAdditionalProperties().get("spec"), JsonNode.class)
            .equals(
                json.convertValue(wanted.getAdditionalProperties().get("spec"), JsonNode.class));
  }

  Optional<Deployment> deployment(String namespace) {
    return deployment.cached(namespace, Workload.NAME);
  }

  /** The class's pool Deployments (any namespace) as the informer holds them. */
  Stream<Deployment> deployments(String sloClass) {
    return deployment.eventSource().stream()
        .flatMap(
            es ->
                es.list(
                    d ->
                        sloClass.equals(d.getMetadata().getLabels().get(PoolObjects.CLASS_LABEL))));
  }

  Optional<Secret> adminSecret(String namespace) {
    return adminSecret.cached(namespace, Workload.ADMIN_SECRET);
  }

  Optional<ConfigMap> table(String namespace) {
    return table.cached(namespace, Workload.TABLE_CONFIGMAP);
  }

  Optional<Namespace> namespace(String name) {
    return namespace.cached(null, name);
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
