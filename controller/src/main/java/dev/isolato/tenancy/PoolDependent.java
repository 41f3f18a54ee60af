package dev.isolato.tenancy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.api.reconciler.dependent.ReconcileResult;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.Updater;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResourceConfigBuilder;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One pool object (of one kind, and name when a pool has several of that kind) as a JOSDK dependent
 * resource. Its informer watches every namespace for objects labelled {@value
 * PoolObjects#MANAGED_BY}={@value PoolObjects#MANAGER}, so drift (an edit, a deletion) triggers a
 * reconcile of the owning class at once; JOSDK's server-side-apply matcher compares the fields
 * Isolato manages ({@link QuantityAwareMatcher}), so a label or data key dropped from the desired
 * state is dropped from the cluster, and an unchanged object costs no write.
 *
 * <p>The desired object comes from the pool being reconciled ({@link #DESIRED} in the context): the
 * class reconciler runs the pool workflow once per pool.
 *
 * <p>Nothing is adopted. A create is a server-side apply that only creates (resourceVersion
 * precondition), so an object of the same name that Isolato's informer does not hold makes it fail
 * with 409; the object is then read and refused ({@link NotOwned}) unless it is this class's. An
 * update is only made to an object that {@link Ownership} says is the class's.
 */
final class PoolDependent<R extends HasMetadata> extends KubernetesDependentResource<R, SloClass>
    implements Creator<R, SloClass>, Updater<R, SloClass>, GarbageCollected<SloClass> {
  /** Context key of the current pool's desired objects ({@code List<HasMetadata>}). */
  static final String DESIRED = "isolato.pool.desired";

  /**
   * Context key of the versions this pass's workflow left the pool's objects at ({@code Map<String,
   * String>}, {@link #versionKey} → resourceVersion): the version it matched unchanged, or the one
   * its own write returned. An edit that lands while the workflow runs is a later version, so it is
   * not taken for one the workflow saw (see {@link PoolWorkflow}'s skip of unchanged pools).
   */
  static final String VERIFIED = "isolato.pool.verified";

  private final String objectName;
  private final boolean filler;

  /**
   * @param objectName the object's name when the pool holds several of this kind, else null
   */
  PoolDependent(Class<R> type, String objectName) {
    this(type, objectName, false);
  }

  /** The filler's object of this kind ({@link PoolObjects#isFiller}); the others leave it out. */
  static <R extends HasMetadata> PoolDependent<R> filler(Class<R> type) {
    return new PoolDependent<>(type, null, true);
  }

  private PoolDependent(Class<R> type, String objectName, boolean filler) {
    super(
        type,
        type.getSimpleName().toLowerCase(java.util.Locale.ROOT)
            + (objectName == null ? "" : "-" + objectName)
            + (filler ? "-" + PoolObjects.FILLER_ROLE : ""));
    this.objectName = objectName;
    this.filler = filler;
    configureWith(
        new KubernetesDependentResourceConfigBuilder<R>()
            .withCreateResourceOnlyIfNotExistingWithSSA(true)
            // also for ConfigMaps and Secrets (JOSDK's default leaves them out): a dropped data key
            // must be dropped from the cluster, which only an apply by the owning manager does
            .withUseSSA(true)
            .withSSAMatcher(new QuantityAwareMatcher<>())
            .withKubernetesDependentInformerConfig(
                InformerConfiguration.builder(type)
                    .withWatchAllNamespaces()
                    .withLabelSelector(PoolObjects.MANAGED_BY + "=" + PoolObjects.MANAGER)
                    .build())
            .build());
  }

  /**
   * A kind the pool's desired objects leave out is left alone: the HPA when a KEDA ScaledObject
   * replaces it (scaling/Autoscaler removes Isolato's own HPA, once, with its ownership check).
   */
  @Override
  public ReconcileResult<R> reconcile(SloClass primary, Context<SloClass> context) {
    if (find(context).isEmpty()) {
      return ReconcileResult.noOperation(null);
    }
    ReconcileResult<R> result = super.reconcile(primary, context);
    @SuppressWarnings("unchecked")
    Map<String, String> verified =
        context.managedWorkflowAndDependentResourceContext().getMandatory(VERIFIED, Map.class);
    result
        .getSingleResource()
        .ifPresent(r -> verified.put(versionKey(r), r.getMetadata().getResourceVersion()));
    return result;
  }

  /**
   * The informer's copy of this pool's object, looked up by its name, if it is a secondary of the
   * class (an owner reference to it, as JOSDK's owner-reference mapper counts them). JOSDK's lookup
   * collects every secondary of the kind into a hash set (a deep hashCode per object) and clones
   * the desired object to pick one: with 50 pools per class, every pool's every dependent paid for
   * all 50, a quarter of the controller's CPU while 50 tenants were onboarded (docs/pipeline.md).
   */
  @Override
  public Optional<R> getSecondaryResource(SloClass primary, Context<SloClass> context) {
    return find(context)
        .flatMap(d -> cached(d.getMetadata().getNamespace(), d.getMetadata().getName()))
        .filter(live -> ownerOf(live, primary));
  }

  private static boolean ownerOf(HasMetadata live, SloClass primary) {
    List<OwnerReference> refs = live.getMetadata().getOwnerReferences();
    return refs != null
        && refs.stream()
            .anyMatch(
                r ->
                    primary.getKind().equals(r.getKind())
                        && primary.getMetadata().getName().equals(r.getName()));
  }

  /** An object's key in {@link #VERIFIED}: its type, namespace and name. */
  static String versionKey(HasMetadata o) {
    return o.getClass().getName()
        + "/"
        + o.getMetadata().getNamespace()
        + "/"
        + o.getMetadata().getName();
  }

  /**
   * A copy (JOSDK adds metadata to what it applies) of this dependent's object of the current pool.
   */
  @Override
  protected R desired(SloClass primary, Context<SloClass> context) {
    HasMetadata found =
        find(context)
            .orElseThrow(
                () -> new IllegalStateException("no desired " + name() + " in the pool's objects"));
    return resourceType().cast(context.getClient().getKubernetesSerialization().clone(found));
  }

  private Optional<HasMetadata> find(Context<SloClass> context) {
    @SuppressWarnings("unchecked")
    List<HasMetadata> objects =
        context.managedWorkflowAndDependentResourceContext().getMandatory(DESIRED, List.class);
    return objects.stream().filter(this::holds).findFirst();
  }

  /** Whether {@code o} is this dependent's object (its kind, filler or not, and name if set). */
  boolean holds(HasMetadata o) {
    return resourceType().isInstance(o)
        && PoolObjects.isFiller(o) == filler
        && (objectName == null || objectName.equals(o.getMetadata().getName()));
  }

  @Override
  public R create(R desired, SloClass primary, Context<SloClass> context) {
    try {
      return super.create(desired, primary, context);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      // exists, unseen by the informer: someone else's (refused), or this class's own create
      // that the informer has not delivered yet
      R live = context.getClient().resource(desired).get();
      requireOwned(live, primary);
      return live;
    }
  }

  @Override
  public R update(R actual, R desired, SloClass primary, Context<SloClass> context) {
    requireOwned(actual, primary);
    return super.update(actual, desired, primary, context);
  }

  /** The informer's copy of the object {@code name} in {@code namespace} (null: cluster-scoped). */
  Optional<R> cached(String namespace, String name) {
    return eventSource().flatMap(es -> es.get(new ResourceID(name, namespace)));
  }

  /** Throws {@link NotOwned} unless {@code live} is absent or the class's (label and owner uid). */
  static void requireOwned(HasMetadata live, SloClass cls) {
    if (live == null) {
      return;
    }
    List<String> uids =
        live.getMetadata().getOwnerReferences() == null
            ? List.of()
            : live.getMetadata().getOwnerReferences().stream().map(OwnerReference::getUid).toList();
    Ownership.conflict(
            live.getKind(),
            live.getMetadata().getName(),
            live.getMetadata().getLabels(),
            uids,
            cls.getMetadata().getName(),
            cls.getMetadata().getUid())
        .ifPresent(
            m -> {
              throw new NotOwned(m);
            });
  }
}
