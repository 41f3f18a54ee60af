package dev.isolato.slo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The linear baseline of the SAC'20 paper: replicas = ⌈Σ committed rates / per-pod cut-off⌉,
 * clamped to the class bounds; every tenant is admitted at its committed rate. Known to mis-size
 * (latency does not scale linearly); used when no trustworthy model exists.
 */
public final class LinearCapacityPlanner implements CapacityPlanner {
  public static final String METHOD = "linear-baseline";

  @Override
  public CapacityPlan plan(PlanRequest request) {
    if (!(request.perPodCutoffRps() > 0)) {
      throw new IllegalArgumentException(
          "perPodCutoffRps must be > 0, was " + request.perPodCutoffRps());
    }
    double total = request.totalSizedRps();
    int needed = (int) Math.ceil(total / request.perPodCutoffRps());
    int replicas = Math.max(request.minReplicas(), Math.min(request.maxReplicas(), needed));
    Map<String, Double> admitted = new LinkedHashMap<>();
    request.tenants().forEach(t -> admitted.put(t.tenantId(), t.committedRps()));
    List<String> why = new ArrayList<>();
    why.add("linear baseline: " + ModelCapacityPlanner.demand(request));
    why.add(
        Text.fmt(
            "⌈%.1f / %.1f rps per pod⌉ = %d, clamped to [%d, %d] → %d replicas",
            total,
            request.perPodCutoffRps(),
            needed,
            request.minReplicas(),
            request.maxReplicas(),
            replicas));
    return new CapacityPlan(replicas, admitted, replicas * request.perPodCutoffRps(), METHOD, why);
  }
}
