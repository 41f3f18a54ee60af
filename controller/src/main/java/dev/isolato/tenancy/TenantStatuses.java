package dev.isolato.tenancy;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Pure computation of a tenant's status from its pool's state. Transition times and servingSince
 * are carried over from the previous status when nothing changed, so an unchanged world yields an
 * equal status and no write.
 */
public final class TenantStatuses {
  private TenantStatuses() {}

  public static TenantStatus of(Tenant t, PoolState pool, double admittedRps, Instant now) {
    TenantStatus prev = t.getStatus() == null ? new TenantStatus() : t.getStatus();
    List<Condition> conds = new ArrayList<>();
    conds.add(
        cond(
            prev,
            "Provisioned",
            true,
            "Applied",
            "pool objects applied in " + pool.namespace(),
            now));
    boolean podsReady = pool.readyReplicas() > 0;
    conds.add(
        cond(
            prev,
            "PodsReady",
            podsReady,
            podsReady ? "ReplicasReady" : "NoReadyReplicas",
            pool.readyReplicas() + "/" + pool.desiredReplicas() + " replicas ready",
            now));
    conds.add(
        cond(
            prev,
            "TableSynced",
            pool.tableSynced(),
            pool.tableSynced() ? "Pushed" : "PushPending",
            pool.syncMessage(),
            now));
    boolean ready = podsReady && pool.tableSynced();
    String reason =
        ready ? TenantPhase.Serving.name() : !podsReady ? "NoReadyReplicas" : "PushPending";
    conds.add(
        cond(
            prev,
            "Ready",
            ready,
            reason,
            ready
                ? "tenant is served by " + pool.namespace() + "/" + Workload.NAME
                : "waiting: " + (podsReady ? pool.syncMessage() : "no ready replica yet"),
            now));

    TenantStatus s = new TenantStatus();
    s.phase = (ready ? TenantPhase.Serving : TenantPhase.Provisioning).name();
    s.observedGeneration = t.getMetadata().getGeneration();
    s.admittedRps = admittedRps;
    s.namespace = pool.namespace();
    s.servingSince =
        ready
            ? (prev.servingSince != null && TenantPhase.parse(prev.phase) == TenantPhase.Serving
                ? prev.servingSince
                : now.toString())
            : null;
    s.conditions = conds;
    return s;
  }

  /** Status of a tenant whose class does not exist (any more). */
  public static TenantStatus pending(Tenant t, String message, Instant now) {
    return pending(t, "SloClassNotFound", message, now);
  }

  /** Status of a tenant whose pool cannot be provisioned, for {@code reason}. */
  public static TenantStatus pending(Tenant t, String reason, String message, Instant now) {
    TenantStatus prev = t.getStatus() == null ? new TenantStatus() : t.getStatus();
    TenantStatus s = new TenantStatus();
    s.phase = TenantPhase.Pending.name();
    s.observedGeneration = t.getMetadata().getGeneration();
    s.conditions = List.of(cond(prev, "Ready", false, reason, message, now));
    return s;
  }

  public static boolean same(TenantStatus a, TenantStatus b) {
    if (a == null || b == null) {
      return a == b;
    }
    return Objects.equals(a.phase, b.phase)
        && Objects.equals(a.observedGeneration, b.observedGeneration)
        && Objects.equals(a.admittedRps, b.admittedRps)
        && Objects.equals(a.servingSince, b.servingSince)
        && Objects.equals(a.namespace, b.namespace)
        && Objects.equals(a.conditions, b.conditions);
  }

  private static Condition cond(
      TenantStatus prev, String type, boolean ok, String reason, String message, Instant now) {
    return Conditions.of(prev.conditions, type, ok, reason, message, now);
  }
}
