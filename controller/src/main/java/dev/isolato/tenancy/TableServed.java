package dev.isolato.tenancy;

/**
 * What the pool reconciler tells as soon as a table push reached every ready pod of a pool, before
 * it writes the pool's status: the class side may then write its new tenants' {@code Serving}
 * without waiting for that status ({@link ServedEarly}).
 */
@FunctionalInterface
public interface TableServed {
  /** Nobody listens (tests of the pool reconciler alone). */
  TableServed NONE = (pool, state) -> {};

  /**
   * {@code pool}'s table ({@code pool.getSpec()}) is on every ready pod.
   *
   * @param state the pool as its next status will say: table synced, its ready replicas
   */
  void tableServed(SloPool pool, PoolState state);
}
