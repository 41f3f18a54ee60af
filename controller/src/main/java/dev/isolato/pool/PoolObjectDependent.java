package dev.isolato.pool;

import dev.isolato.tenancy.NotOwned;
import dev.isolato.tenancy.Ownership;
import dev.isolato.tenancy.PoolNames;
import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.SloPool;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.Updater;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * One object of a pool, built from the pool resource by its {@link PoolObjects} builder. Its
 * informer ({@link PoolDependents#MANAGED}) sees only objects labelled as Isolato's, and an event
 * maps to the pool named by the object's pool label, so drift reconciles that pool at once.
 *
 * <p>Nothing is adopted: every pool object carries an owner reference to its class (the garbage
 * collector removes it with the class), and an object of the desired name that is not the class's
 * ({@link Ownership}) is never written or deleted. A create only creates (server-side apply with a
 * precondition), so an object the informer has not seen fails with 409, is read, and is refused
 * unless it is the class's. Garbage collected (no finalizer on the pool): the workflow deletes an
 * object itself only when the pool stops wanting it (a reconcile precondition turned false).
 */
abstract class PoolObjectDependent<R extends HasMetadata>
    extends KubernetesDependentResource<R, SloPool>
    implements Creator<R, SloPool>,
        Updater<R, SloPool>,
        GarbageCollected<SloPool>,
        SecondaryToPrimaryMapper<R> {
  private final Function<PoolObjects.Input, HasMetadata> builder;

  PoolObjectDependent(Class<R> type, Function<PoolObjects.Input, HasMetadata> builder) {
    super(type);
    this.builder = builder;
  }

  /** The object as the pool's spec says it should be. */
  @Override
  protected R desired(SloPool pool, Context<SloPool> context) {
    return resourceType().cast(builder.apply(input(pool, context)));
  }

  /** The inputs of the pool's objects, with the master key from the reconciler's informer. */
  protected static PoolObjects.Input input(SloPool pool, Context<SloPool> context) {
    Optional<Secret> keys = context.getSecondaryResource(Secret.class, PoolReconciler.KEYS);
    return PoolInput.of(pool, PoolInput.keys(keys));
  }

  /** The class owns the object (its owner reference is in what the builders make). */
  @Override
  protected boolean addOwnerReference() {
    return false;
  }

  /** Only the class's own object of the desired name (one lookup in the informer's cache). */
  @Override
  public Optional<R> getSecondaryResource(SloPool pool, Context<SloPool> context) {
    ResourceID id = targetSecondaryResourceID(pool, context);
    return eventSource().flatMap(es -> es.get(id)).filter(live -> ownedByClassOf(live, pool));
  }

  private static boolean ownedByClassOf(HasMetadata live, SloPool pool) {
    List<OwnerReference> refs = live.getMetadata().getOwnerReferences();
    return refs != null
        && refs.stream()
            .anyMatch(
                r -> "SloClass".equals(r.getKind()) && pool.getSpec().sloClass.equals(r.getName()));
  }

  /** An event's pool: the one its pool label names; a class-wide object's is the shared pool. */
  @Override
  public Set<ResourceID> toPrimaryResourceIDs(R object) {
    Map<String, String> labels = object.getMetadata().getLabels();
    if (labels == null) {
      return Set.of();
    }
    String pool = labels.get(PoolObjects.POOL_LABEL);
    if (pool != null) {
      return Set.of(new ResourceID(pool));
    }
    String cls = labels.get(PoolObjects.CLASS_LABEL);
    return cls == null ? Set.of() : Set.of(new ResourceID(PoolNames.sharedNamespace(cls)));
  }

  @Override
  public R create(R desired, SloPool pool, Context<SloPool> context) {
    try {
      return super.create(desired, pool, context);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      // exists, unseen by the informer: someone else's (refused), or this pool's own create that
      // the informer has not delivered yet
      R live = context.getClient().resource(desired).get();
      requireOwned(live, pool);
      return live;
    }
  }

  @Override
  public R update(R actual, R desired, SloPool pool, Context<SloPool> context) {
    requireOwned(actual, pool);
    return super.update(actual, desired, pool, context);
  }

  /** Deleted when the pool no longer wants it (a precondition turned false): only the class's. */
  @Override
  protected void handleDelete(SloPool pool, R secondary, Context<SloPool> context) {
    if (secondary != null && secondary.getMetadata().getDeletionTimestamp() == null) {
      requireOwned(secondary, pool);
      context.getClient().resource(secondary).delete();
    }
  }

  private static void requireOwned(HasMetadata live, SloPool pool) {
    Ownership.require(
        live,
        pool.getSpec().sloClass,
        PoolInput.classUid(pool)
            .orElseThrow(
                () ->
                    new NotOwned(
                        "pool "
                            + pool.getMetadata().getName()
                            + " has no owner reference to its class")));
  }
}
