package dev.isolato.tenancy;

import dev.isolato.calibration.FieldError;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a pool's pods run (issue 37 item 4): spread over nodes, on the class's node pool if it
 * declares one, and never on a node holding another IO-heavy class's pod when the pool is IO-heavy
 * itself (SAC'20 Findings 1–2: disk IO is not isolated, co-located IO-intensive workloads miss
 * their latency; {@code docs/results/colocated} measures it here).
 */
public final class PodPlacement {
  public static final String HOSTNAME = "kubernetes.io/hostname";

  /** On the pods of an IO-heavy pool; the guard's anti-affinity selects it. */
  public static final String IO_HEAVY_LABEL = "isolato.dev/io-heavy";

  /**
   * A pool is IO-heavy when its tenants may write this much per second in all (committed rate × io
   * × 4 KiB): about a tenth of what this machine's virtual disk sustains with page-cache writes.
   */
  public static final long IO_HEAVY_BYTES_PER_SECOND = 8 * PodLimits.MIB;

  /**
   * ... or when its tenants may ask for this many fdatasync per second (a tenant with fsync and io
   * > 0 syncs once per request; one takes ≈ 1.7 ms here, docs/saas-bench.md, so 100/s keep the disk
   * busy a sixth of the time).
   */
  public static final double IO_HEAVY_SYNCS_PER_SECOND = 100;

  /** A label key: optional DNS-subdomain prefix, then a name of at most 63 characters. */
  public static final String LABEL_KEY =
      "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
          + "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$";

  /** A label value: empty or at most 63 characters. */
  public static final String LABEL_VALUE = "^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$";

  static final int MAX_PREFIX = 253;

  private PodPlacement() {}

  /** Whether the tenants' committed writes or syncs make a pool IO-heavy. */
  public static boolean ioHeavy(Collection<Tenant> tenants) {
    double bytes = 0;
    double syncs = 0;
    for (Tenant t : tenants) {
      TenantSpec s = t.getSpec();
      if (s == null || s.profile == null || s.profile.io <= 0) {
        continue;
      }
      bytes += s.committedRps * s.profile.io * PodLimits.IO_BLOCK;
      syncs += s.profile.fsync ? s.committedRps : 0;
    }
    return bytes >= IO_HEAVY_BYTES_PER_SECOND || syncs >= IO_HEAVY_SYNCS_PER_SECOND;
  }

  /** Whether the pool's pods are kept off other IO-heavy classes' nodes (and they off theirs). */
  static boolean guarded(PoolIo io, PlacementSpec spec) {
    return PlacementSpec.ioGuard(spec) && io.heavy();
  }

  /**
   * The labels the placement adds to a pool's pods: the io-heavy label unless the class opted out
   * of the guard (other classes' guards select the label, so a labelled pod stays avoided).
   */
  public static Map<String, String> podLabels(PoolIo io, PlacementSpec spec) {
    return guarded(io, spec) ? Map.of(IO_HEAVY_LABEL, "true") : Map.of();
  }

  /** The class's node selector; null (none) when it declares none. */
  static Map<String, String> nodeSelector(PlacementSpec spec) {
    return spec == null || spec.nodeSelector == null || spec.nodeSelector.isEmpty()
        ? null
        : new LinkedHashMap<>(spec.nodeSelector);
  }

  /** The class's tolerations; null (none) when it declares none. */
  static List<Toleration> tolerations(PlacementSpec spec) {
    return spec == null || spec.tolerations == null || spec.tolerations.isEmpty()
        ? null
        : spec.tolerations.stream().map(PodPlacement::toleration).toList();
  }

  /** The IO guard of an IO-heavy pool of a guarded class; null (no affinity) otherwise. */
  static Affinity affinity(String sloClass, PoolIo io, PlacementSpec spec) {
    return guarded(io, spec) ? ioGuard(sloClass) : null;
  }

  /**
   * At most one pod more on any node than on another, counting only nodes the pod may use (the
   * class's node selector, and taints: KWOK's and cordoned nodes are no domain). DoNotSchedule so
   * that no node holds every replica while another node can take one; with a single eligible node
   * the skew is always 0, so one node still runs the whole pool. The cost: while one node is full,
   * the pool grows by at most one pod more elsewhere. pod-template-hash keeps a rollout's old pods
   * out of the count.
   */
  static TopologySpreadConstraint spread(Map<String, String> selector) {
    return new TopologySpreadConstraintBuilder()
        .withMaxSkew(1)
        .withTopologyKey(HOSTNAME)
        .withWhenUnsatisfiable("DoNotSchedule")
        .withNewLabelSelector()
        .withMatchLabels(new LinkedHashMap<>(selector))
        .endLabelSelector()
        .withMatchLabelKeys("pod-template-hash")
        .withNodeAffinityPolicy("Honor")
        .withNodeTaintsPolicy("Honor")
        .build();
  }

  /**
   * Required anti-affinity against the IO-heavy pods of every other class, in any namespace. The
   * scheduler applies a placed pod's required anti-affinity symmetrically, so neither class lands
   * next to the other whichever comes first. Pods of the same class (its shared and dedicated
   * pools) may share a node: the class's calibration measured them together.
   */
  static Affinity ioGuard(String sloClass) {
    return new AffinityBuilder()
        .withNewPodAntiAffinity()
        .addNewRequiredDuringSchedulingIgnoredDuringExecution()
        .withTopologyKey(HOSTNAME)
        .withNewNamespaceSelector()
        .endNamespaceSelector()
        .withNewLabelSelector()
        .addToMatchLabels(IO_HEAVY_LABEL, "true")
        .addNewMatchExpression()
        .withKey(PoolObjects.CLASS_LABEL)
        .withOperator("NotIn")
        .withValues(sloClass)
        .endMatchExpression()
        .endLabelSelector()
        .endRequiredDuringSchedulingIgnoredDuringExecution()
        .endPodAntiAffinity()
        .build();
  }

  static Toleration toleration(PlacementSpec.Toleration t) {
    PlacementSpec.Operator op = t.operator == null ? PlacementSpec.Operator.Equal : t.operator;
    return new TolerationBuilder()
        .withKey(t.key)
        .withOperator(op.name())
        .withValue(op == PlacementSpec.Operator.Exists ? null : t.value)
        .withEffect(t.effect == null ? null : t.effect.name())
        .build();
  }

  /** What the API rejects in spec.placement (the CRD schema cannot check map keys). */
  public static List<FieldError> problems(PlacementSpec p) {
    List<FieldError> e = new ArrayList<>();
    if (p == null) {
      return e;
    }
    String f = "spec.placement.";
    if (p.nodeSelector != null) {
      if (p.nodeSelector.size() > PlacementSpec.MAX_SELECTOR) {
        e.add(new FieldError(f + "nodeSelector", "at most " + PlacementSpec.MAX_SELECTOR));
      }
      p.nodeSelector.forEach(
          (k, v) -> {
            labelKey(e, f + "nodeSelector", k);
            if (v == null || !v.matches(LABEL_VALUE)) {
              e.add(
                  new FieldError(
                      f + "nodeSelector." + k, "must be a label value, was '" + v + "'"));
            }
          });
    }
    if (p.tolerations != null) {
      if (p.tolerations.size() > PlacementSpec.MAX_TOLERATIONS) {
        e.add(new FieldError(f + "tolerations", "at most " + PlacementSpec.MAX_TOLERATIONS));
      }
      for (int i = 0; i < p.tolerations.size(); i++) {
        toleration(e, f + "tolerations[" + i + "]", p.tolerations.get(i));
      }
    }
    return e;
  }

  private static void toleration(List<FieldError> e, String f, PlacementSpec.Toleration t) {
    if (t == null) {
      e.add(new FieldError(f, "is required"));
      return;
    }
    labelKey(e, f + ".key", t.key);
    boolean exists = t.operator == PlacementSpec.Operator.Exists;
    if (exists && t.value != null && !t.value.isEmpty()) {
      e.add(new FieldError(f + ".value", "must be empty with operator Exists"));
    } else if (!exists && t.value != null && !t.value.matches(LABEL_VALUE)) {
      e.add(new FieldError(f + ".value", "must be a label value, was '" + t.value + "'"));
    }
  }

  private static void labelKey(List<FieldError> e, String field, String k) {
    int slash = k == null ? -1 : k.indexOf('/');
    if (k == null || !k.matches(LABEL_KEY) || slash > MAX_PREFIX) {
      e.add(new FieldError(field, "'" + k + "' is not a label key"));
    }
  }
}
