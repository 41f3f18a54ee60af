package dev.isolato.tenancy;

import dev.isolato.slo.CapacityPlan;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a new tenant's {@code Serving} as soon as its pool's table is on every ready pod, told by
 * the pool reconciler ({@link TableServed}), instead of after the pool's status write, its watch
 * event and a class pass: a round trip, a watch event and a reconcile fewer between a POST and
 * {@code Serving} (docs/onboarding-profile.md).
 *
 * <p>Only for a pool spec the class reconciler wrote in this process (its table version, its
 * tenants' rates) and the pool's status does not report yet, only for the tenants of that spec
 * whose spec did not change since, and only their first {@code Serving}. The class pass leaves a
 * pool's tenants alone until its status reports its spec, which the pool reconciler writes after
 * this; it then computes the same status ({@link TenantStatuses}) from that status and finds
 * nothing to write. A spec whose status is in (a new pool waiting for its first ready pod) is the
 * class pass's alone, and so are the statuses of a burst (more tenants waiting for the next spec).
 */
public final class ServedEarly implements TableServed {
  private static final Logger log = LoggerFactory.getLogger(ServedEarly.class);

  /** A tenant of a written spec: the spec generation it was planned at, its admitted rate. */
  record Planned(Long generation, double admittedRps) {}

  /** A pool spec the class reconciler wrote: its table's version and its tenants. */
  record Written(
      String sloClass, String isolation, String tableVersion, Map<String, Planned> tenants) {}

  /** A status to write. */
  record Write(Tenant tenant, TenantStatus status) {}

  private final Map<String, Written> written = new ConcurrentHashMap<>();
  private final Function<String, Optional<Tenant>> newest;
  private final Function<String, List<Tenant>> classTenants;
  private final BiConsumer<Tenant, TenantStatus> write;
  private final TenancyMetrics metrics;

  /**
   * @param newest a tenant by id, in the newest version the class reconciler knows
   * @param classTenants a class's tenants as the class reconciler knows them
   * @param write the class reconciler's status write (the same field manager and cache update)
   */
  public ServedEarly(
      Function<String, Optional<Tenant>> newest,
      Function<String, List<Tenant>> classTenants,
      BiConsumer<Tenant, TenantStatus> write,
      TenancyMetrics metrics) {
    this.newest = newest;
    this.classTenants = classTenants;
    this.write = write;
    this.metrics = metrics;
  }

  /**
   * The class reconciler writes {@code spec} for {@code pool}, planned as {@code plan} (told before
   * the write: a spec that is not written is never pushed, so its entry never matches).
   */
  void specWritten(Pool pool, SloPoolSpec spec, CapacityPlan plan) {
    Map<String, Planned> tenants = new HashMap<>();
    for (Tenant t : pool.tenants()) {
      String id = t.getMetadata().getName();
      tenants.put(
          id,
          new Planned(
              t.getMetadata().getGeneration(),
              plan.admittedRps().getOrDefault(id, t.getSpec().committedRps)));
    }
    written.put(
        pool.namespace(),
        new Written(pool.sloClass(), pool.isolation(), spec.tableVersion(), Map.copyOf(tenants)));
  }

  /** The pool is gone. */
  void forget(String namespace) {
    written.remove(namespace);
  }

  @Override
  public void tableServed(SloPool pool, PoolState state) {
    String ns = pool.getMetadata().getName();
    Written w = written.get(ns);
    // in a burst more tenants wait for the pool's next spec, which the class writes once the
    // pool's status is in: statuses written here would hold that status (and the burst) back,
    // while the class pass writes them beside the next spec
    if (w == null
        || pool.getSpec() == null
        || reported(pool)
        || othersWaiting(pool, classTenants.apply(pool.getSpec().sloClass))) {
      return;
    }
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    List<Tenant> live = new ArrayList<>();
    for (String id : pool.getSpec().tenants) {
      newest.apply(id).ifPresent(live::add);
    }
    List<Write> writes = writes(w, pool.getSpec().tableVersion(), state, live, now);
    // once per spec: a later push of the same table (a new pod) has nothing new to say
    written.remove(ns, w);
    List<Runnable> runs = new ArrayList<>();
    for (Write x : writes) {
      runs.add(
          () -> {
            write.accept(x.tenant(), x.status());
            log.debug(
                "tenant {}: {} -> {} written (table on every ready pod)",
                x.tenant().getMetadata().getName(),
                x.tenant().getStatus() == null ? null : x.tenant().getStatus().phase,
                x.status().phase);
            metrics.servedEarly(w.sloClass());
            metrics.onboarded(x.tenant(), w.sloClass(), w.isolation());
          });
    }
    try {
      ParallelWrites.run(runs);
    } catch (RuntimeException e) {
      // the class pass writes what failed here, once the pool's status is in
      log.debug("pool {}: early Serving writes: {}", ns, e.toString());
    }
  }

  /**
   * Whether the pool's status already reports its spec: the class pass then computes its tenants'
   * statuses from that status (a pool waiting for its first ready pod), and a write here could
   * cross one of its writes made from the status before the push.
   */
  static boolean reported(SloPool pool) {
    return pool.getStatus() != null
        && Objects.equals(pool.getStatus().observedGeneration, pool.getMetadata().getGeneration());
  }

  /** Whether live tenants of the class that map to {@code pool} are not in its spec yet. */
  static boolean othersWaiting(SloPool pool, List<Tenant> classTenants) {
    String ns = pool.getMetadata().getName();
    Set<String> listed = Set.copyOf(pool.getSpec().tenants);
    return Pools.of(pool.getSpec().sloClass, classTenants).stream()
        .filter(p -> p.namespace().equals(ns))
        .flatMap(p -> p.tenants().stream())
        .anyMatch(t -> !listed.contains(t.getMetadata().getName()));
  }

  /**
   * The statuses to write: for the tenants of the written spec whose table version was pushed, not
   * deleted, at the generation they were planned at, not yet {@code Serving}, and now serving.
   */
  static List<Write> writes(
      Written w, String pushedVersion, PoolState state, List<Tenant> tenants, Instant now) {
    List<Write> out = new ArrayList<>();
    if (!w.tableVersion().equals(pushedVersion) || !state.tableSynced()) {
      return out;
    }
    for (Tenant t : tenants) {
      Planned p = w.tenants().get(t.getMetadata().getName());
      if (p == null
          || t.getMetadata().getDeletionTimestamp() != null
          || !Objects.equals(p.generation(), t.getMetadata().getGeneration())
          || TenantPhase.of(t) == TenantPhase.Serving) {
        continue;
      }
      TenantStatus s = TenantStatuses.of(t, state, p.admittedRps(), now);
      if (TenantPhase.parse(s.phase) == TenantPhase.Serving) {
        out.add(new Write(t, s));
      }
    }
    return out;
  }
}
