package dev.isolato.tenancy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.slo.CapacityPlan;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.Objects;
import java.util.Optional;

/**
 * The pool resource a class wants for one of its pools, and what the class reads back from one: its
 * state for the tenants' statuses, or why it is held. Pure: no cluster access.
 */
public final class PoolResources {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Reasons of a pool's Ready=False condition (the pool reconciler writes them). */
  public static final String NAMESPACE_CONFLICT = "NamespaceConflict";

  public static final String APPLY_FAILED = "ApplyFailed";

  private PoolResources() {}

  /** How the class's pools scale: KEDA's settings when they get a ScaledObject, else none. */
  public record Scaling(boolean keda, KedaSettings settings) {}

  /** The pool resource for {@code pool}, planned as {@code plan} with the tenant table. */
  public static SloPool desired(
      SloClass cls,
      Pool pool,
      CapacityPlan plan,
      double perPodCutoffRps,
      String table,
      Scaling scaling,
      NetworkPeers peers,
      String gateImage) {
    SloPool p = new SloPool();
    p.setMetadata(
        new ObjectMetaBuilder()
            .withName(pool.namespace())
            .withLabels(PoolObjects.labels(pool))
            .withOwnerReferences(PoolObjects.owner(cls))
            .build());
    SloPoolSpec s = new SloPoolSpec();
    s.sloClass = pool.sloClass();
    s.dedicatedTenant = pool.dedicatedTenant();
    s.tenants = pool.tenants().stream().map(t -> t.getMetadata().getName()).toList();
    PoolIo io = PoolIo.of(pool.tenants());
    s.ioHeavy = io.heavy();
    s.maxIo = io.maxIo();
    s.classSpec = cls.getSpec();
    s.replicas = plan.replicas();
    s.podCpuMillis = plan.podCpuMillis();
    s.perPodCutoffRps = perPodCutoffRps;
    s.table = table;
    s.autoscaler = scaling.keda() ? SloPoolSpec.KEDA : SloPoolSpec.HPA;
    s.keda = scaling.keda() ? scaling.settings() : null;
    s.peers = peers;
    s.gateImage = gateImage;
    p.setSpec(s);
    return p;
  }

  /** Whether the live pool already says what {@code desired} says (spec and labels). */
  public static boolean same(SloPool live, SloPool desired) {
    return live != null
        && Objects.equals(live.getMetadata().getLabels(), desired.getMetadata().getLabels())
        && JSON.valueToTree(live.getSpec()).equals(JSON.valueToTree(desired.getSpec()));
  }

  /** Where the live pool differs from the desired one (a JSON path), for the log of a write. */
  public static String difference(SloPool live, SloPool desired) {
    if (live == null) {
      return "new";
    }
    if (!Objects.equals(live.getMetadata().getLabels(), desired.getMetadata().getLabels())) {
      return "metadata.labels";
    }
    return firstDifference(
        "spec", JSON.valueToTree(live.getSpec()), JSON.valueToTree(desired.getSpec()));
  }

  private static String firstDifference(
      String path,
      com.fasterxml.jackson.databind.JsonNode a,
      com.fasterxml.jackson.databind.JsonNode b) {
    if (a.equals(b)) {
      return "";
    }
    if (a.isObject() && b.isObject()) {
      java.util.Set<String> names = new java.util.TreeSet<>();
      a.fieldNames().forEachRemaining(names::add);
      b.fieldNames().forEachRemaining(names::add);
      for (String n : names) {
        var x = a.get(n);
        var y = b.get(n);
        if (x == null || y == null) {
          return path + "." + n + " (" + x + " vs " + y + ")";
        }
        String d = firstDifference(path + "." + n, x, y);
        if (!d.isEmpty()) {
          return d;
        }
      }
    }
    return path + " (" + a + " vs " + b + ")";
  }

  /**
   * Whether two versions of a pool resource carry the same status (the class reads nothing else).
   */
  public static boolean sameStatus(SloPool newer, SloPool older) {
    return JSON.valueToTree(newer.getStatus()).equals(JSON.valueToTree(older.getStatus()));
  }

  /**
   * The live pool's state for its tenants, once the pool reconciler has seen its current spec;
   * empty while it has not (its tenants' statuses wait, so a table on its way does not flip a
   * serving tenant back).
   */
  public static Optional<PoolState> state(SloPool live) {
    SloPoolStatus st = live.getStatus();
    if (st == null || !Objects.equals(st.observedGeneration, live.getMetadata().getGeneration())) {
      return Optional.empty();
    }
    boolean synced = live.getSpec().tableVersion().equals(st.tableVersion) && st.readyReplicas > 0;
    return Optional.of(
        new PoolState(
            live.getMetadata().getName(),
            live.getSpec().replicas,
            st.readyReplicas,
            synced,
            synced ? st.tableMessage : pendingMessage(st)));
  }

  private static String pendingMessage(SloPoolStatus st) {
    return st.tableMessage == null ? "table not pushed yet" : st.tableMessage;
  }

  /** The live pool's Ready=False condition, when its objects could not be applied. */
  public static Optional<Condition> failure(SloPool live) {
    return live.getStatus() == null
        ? Optional.empty()
        : live.getStatus().conditions.stream()
            .filter(c -> "Ready".equals(c.getType()) && "False".equals(c.getStatus()))
            .findFirst();
  }
}
