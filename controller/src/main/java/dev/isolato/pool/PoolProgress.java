package dev.isolato.pool;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.tenancy.Conditions;
import dev.isolato.tenancy.PoolTokens;
import dev.isolato.tenancy.SloPool;
import dev.isolato.tenancy.SloPoolStatus;
import dev.isolato.tenancy.TablePusher;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A pool's next status from what its reconcile found: whether its objects were applied, its pods,
 * and the outcome of a table push. Each step keeps what the previous status knew of the table and
 * the key unless this pass learnt better.
 */
final class PoolProgress {
  /** How soon to look again while the table is not on every ready pod, or an apply failed. */
  static final Duration PENDING_RECHECK = Duration.ofMillis(500);

  /** How soon to look again while the pods have yet to accept a rotated token. */
  static final Duration ROTATION_RECHECK = Duration.ofSeconds(5);

  /** How soon to look again at a pool held by an object Isolato does not own. */
  static final Duration CONFLICT_RECHECK = Duration.ofSeconds(10);

  /** Table message of a pool whose every ready pod holds the current table. */
  static final String SYNCED = "current table on every ready pod";

  static final String READY = "Ready";
  static final String APPLIED = "PoolApplied";
  static final String NAMESPACE_CONFLICT = "NamespaceConflict";
  static final String APPLY_FAILED = "ApplyFailed";

  private static final ObjectMapper JSON = new ObjectMapper();

  private PoolProgress() {}

  /** Why the pool's objects could not be applied: not Isolato's (held), or failed (retried). */
  record Failure(boolean notOwned, String message) {}

  /** The next status and when to look again. */
  record Step(SloPoolStatus status, Optional<Duration> recheck) {}

  /** The pool Deployment's replicas (the plan's while it has none) and ready pods. */
  record Pods(int replicas, int ready) {}

  /** Whether the pool's previous status says its objects were applied (Ready). */
  static boolean applied(SloPoolStatus status) {
    return status != null
        && status.conditions != null
        && status.conditions.stream()
            .anyMatch(c -> READY.equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** Whether the table must go to the pods now. */
  static boolean needsPush(SloPool pool, Pods pods, boolean rotating) {
    SloPoolStatus prev = pool.getStatus();
    return rotating
        || prev == null
        || !pool.getSpec().tableVersion().equals(prev.tableVersion)
        || prev.tablePods < pods.ready();
  }

  static Step held(SloPool pool, Failure failure, Instant now) {
    SloPoolStatus next =
        carried(
            pool, now, failure.notOwned() ? NAMESPACE_CONFLICT : APPLY_FAILED, failure.message());
    return new Step(next, Optional.of(failure.notOwned() ? CONFLICT_RECHECK : PENDING_RECHECK));
  }

  /** Nothing to push: the table and the key are where the previous status says. */
  static Step unchanged(SloPool pool, Pods pods, PoolTokens.Keys keys, Instant now) {
    SloPoolStatus next = applied(pool, pods, now);
    if (keys.previous() == null) {
      next.adminKey = keys.fingerprint();
    }
    return new Step(next, Optional.empty());
  }

  /** No ready pod to push to: the Deployment's events bring the pool back when one is. */
  static Step noReadyPod(SloPool pool, Pods pods, Instant now) {
    SloPoolStatus next = applied(pool, pods, now);
    next.tableMessage = "no ready pod to push the table to";
    return new Step(next, Optional.empty());
  }

  static Step pushed(
      SloPool pool,
      Pods pods,
      PoolTokens.Keys keys,
      boolean rotating,
      TablePusher.Result pushed,
      Instant now) {
    SloPoolStatus next = applied(pool, pods, now);
    String version = pool.getSpec().tableVersion();
    boolean confirmed = rotating && pushed.firstTokenEverywhere();
    if (!rotating || confirmed) {
      next.adminKey = keys.fingerprint();
    }
    if (pushed.complete()) {
      next.tableVersion = version;
      next.tablePods = pushed.readyPods();
      next.tableMessage = SYNCED;
    } else {
      next.tableMessage =
          "table "
              + version
              + " pushed to "
              + pushed.accepted()
              + "/"
              + pushed.readyPods()
              + " ready endpoints"
              + (pushed.errors().isEmpty() ? "" : ": " + String.join("; ", pushed.errors()));
    }
    // a confirmed key drops the previous token from the pool's Secret: at the next pass
    boolean behind = !pushed.complete() || pushed.readyPods() < pods.ready() || confirmed;
    boolean stillRotating = rotating && !pushed.firstTokenEverywhere();
    return new Step(
        next,
        behind
            ? Optional.of(PENDING_RECHECK)
            : stillRotating ? Optional.of(ROTATION_RECHECK) : Optional.empty());
  }

  private static SloPoolStatus applied(SloPool pool, Pods pods, Instant now) {
    SloPoolStatus next = carried(pool, now, APPLIED, "pool objects applied");
    next.replicas = pods.replicas();
    next.readyReplicas = pods.ready();
    return next;
  }

  /** A status that keeps the previous one's table, key and pods, with a new Ready condition. */
  private static SloPoolStatus carried(SloPool pool, Instant now, String reason, String message) {
    SloPoolStatus prev = pool.getStatus() == null ? new SloPoolStatus() : pool.getStatus();
    SloPoolStatus next = new SloPoolStatus();
    next.observedGeneration = pool.getMetadata().getGeneration();
    next.replicas = prev.replicas;
    next.readyReplicas = prev.readyReplicas;
    next.tableVersion = prev.tableVersion;
    next.tablePods = prev.tablePods;
    next.tableMessage = prev.tableMessage;
    next.adminKey = prev.adminKey;
    next.conditions =
        List.of(
            Conditions.of(prev.conditions, READY, APPLIED.equals(reason), reason, message, now));
    return next;
  }

  /** Whether two statuses say the same (a write is needed only when they do not). */
  static boolean same(SloPoolStatus a, SloPoolStatus b) {
    return JSON.valueToTree(a == null ? new SloPoolStatus() : a).equals(JSON.valueToTree(b));
  }
}
