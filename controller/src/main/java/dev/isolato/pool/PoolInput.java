package dev.isolato.pool;

import dev.isolato.slo.CapacityPlan;
import dev.isolato.tenancy.ImagePolicy;
import dev.isolato.tenancy.PoolIo;
import dev.isolato.tenancy.PoolKeys;
import dev.isolato.tenancy.PoolNames;
import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.PoolTokens;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloPool;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A pool resource read as the inputs of its objects ({@link PoolObjects.Input}): the class as the
 * pool's spec carries it (name, owner uid, spec), the plan's size, the table, and the admin tokens
 * the pool master key gives.
 */
final class PoolInput {
  private PoolInput() {}

  /**
   * The inputs of {@code pool}'s objects with the master {@code keys}. While a rotated key is not
   * yet confirmed by every ready pod ({@link #rotating}), the admin tokens list the previous key's
   * token too.
   */
  static PoolObjects.Input of(SloPool pool, PoolTokens.Keys keys) {
    CapacityPlan plan =
        new CapacityPlan(
            pool.getSpec().replicas, Map.of(), 0, "", List.of(), pool.getSpec().podCpuMillis);
    return new PoolObjects.Input(
        sloClass(pool),
        pool.pool(),
        plan,
        pool.servedTable(),
        PoolTokens.tokens(keys, pool.getMetadata().getName(), !rotating(pool, keys)),
        pool.getSpec().peers,
        pool.getSpec().gateImage,
        new PoolIo(pool.getSpec().ioHeavy, pool.getSpec().maxIo));
  }

  /**
   * Whether the pool's pods have yet to accept the current key's token: a previous key exists and
   * the status does not name the current one as accepted.
   */
  static boolean rotating(SloPool pool, PoolTokens.Keys keys) {
    return keys.previous() != null
        && (pool.getStatus() == null || !keys.fingerprint().equals(pool.getStatus().adminKey));
  }

  /** The keys of the master key Secret; a pool is not built before the class reconciler made it. */
  static PoolTokens.Keys keys(Optional<Secret> secret) {
    return secret
        .flatMap(PoolKeys::read)
        .orElseThrow(() -> new IllegalStateException("no pool master key " + PoolKeys.SECRET));
  }

  /**
   * Why a pool resource must not be brought about, if it must not: its name is not the namespace
   * its class (or dedicated tenant) gets, or its class's spec names an image the policy refuses.
   * The class reconciler writes only pools that pass; these checks stop a pool resource written by
   * anyone else from making Isolato create other namespaces or run other images.
   */
  static Optional<String> refusal(SloPool pool, ImagePolicy images) {
    String spec = pool.getSpec().sloClass;
    String tenant = pool.getSpec().dedicatedTenant;
    Optional<String> badName =
        tenant == null
            ? PoolNames.classNameProblem(spec).map(m -> "class name " + m)
            : PoolNames.tenantIdProblem(tenant).map(m -> "tenant id " + m);
    if (badName.isPresent()) {
      return badName;
    }
    String expected =
        tenant == null ? PoolNames.sharedNamespace(spec) : PoolNames.dedicatedNamespace(tenant);
    if (!expected.equals(pool.getMetadata().getName())) {
      return Optional.of(
          "pool "
              + pool.getMetadata().getName()
              + " is not named as its pool's namespace ("
              + expected
              + ")");
    }
    // the pool's own gate image too: a pool resource written by anyone else must not name one
    String gate = pool.getSpec().gateImage;
    return images
        .problem(pool.getSpec().classSpec)
        .or(() -> gate == null ? Optional.empty() : images.problem(gate));
  }

  /** The owning class as far as the pool's objects need it: its name, uid and spec. */
  static SloClass sloClass(SloPool pool) {
    SloClass cls = new SloClass();
    cls.setMetadata(
        new ObjectMetaBuilder()
            .withName(pool.getSpec().sloClass)
            .withUid(classUid(pool).orElse(null))
            .build());
    cls.setSpec(pool.getSpec().classSpec);
    return cls;
  }

  /** The uid of the class that owns the pool (its controller owner reference). */
  static Optional<String> classUid(SloPool pool) {
    List<OwnerReference> refs = pool.getMetadata().getOwnerReferences();
    return refs == null
        ? Optional.empty()
        : refs.stream()
            .filter(r -> "SloClass".equals(r.getKind()))
            .filter(r -> pool.getSpec().sloClass.equals(r.getName()))
            .map(OwnerReference::getUid)
            .findFirst();
  }
}
