package dev.isolato.slo;

import static dev.isolato.slo.Text.fmt;
import static dev.isolato.slo.Text.trim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Sizes a class from its fitted {@link LatencyModel} (either form; the method is {@value #METHOD}
 * for both, the explanation names the form): the fewest replicas whose predicted latency at the
 * total committed rate × (1 + headroom) meets the target, and per tenant an admitted rate that is
 * its commitment's share of the usable capacity (RR_cutoff/T weighted by commitment). Without a
 * trustworthy model for the request it falls back to {@link LinearCapacityPlanner}, with method
 * {@value #FALLBACK_METHOD} and the reason first in the explanation.
 */
public final class ModelCapacityPlanner implements CapacityPlanner {
  public static final String METHOD = "usl-model";
  public static final String FALLBACK_METHOD = "linear-fallback";

  private final PlanPolicy policy;
  private final LinearCapacityPlanner linear = new LinearCapacityPlanner();

  public ModelCapacityPlanner(PlanPolicy policy) {
    this.policy = policy;
  }

  @Override
  public CapacityPlan plan(PlanRequest request) {
    List<String> distrust = distrust(request);
    if (!distrust.isEmpty()) {
      return fallback(request, distrust);
    }
    LatencyModel model = request.fit().model();
    double total = request.totalSizedRps();
    double planned = total * (1 + policy.headroom());
    double target = request.targetLatencyMs();
    String p = "p" + trim(request.percentile());
    List<String> why = new ArrayList<>();
    why.add(
        fmt(
            "%s model of %s (%s, %d steps, R² %.3f%s): %s",
            request.fit().form(),
            request.sloClass(),
            p,
            request.fit().pointsUsed(),
            request.fit().rSquared(),
            request.fit().sigmaFitted() ? "" : ", σ assumed",
            model.describe()));
    why.add(
        fmt(
            "%s; with %.0f%% headroom plan for %.1f rps",
            demand(request), 100 * policy.headroom(), planned));
    double cutoff = model.perReplicaCutoffRps(target);
    double limit = Math.min(cutoff, policy.maxUtilisation() * model.saturationRps());
    why.add(fmt("per-replica cut-off at %s <= %.1f ms: %.1f rps", p, target, cutoff));
    if (limit < cutoff) {
      why.add(
          fmt(
              "per-replica load capped at %.0f%% of the saturation rate %.1f rps: %.1f rps",
              100 * policy.maxUtilisation(), model.saturationRps(), limit));
    }
    // replicasFor scales with rate / per-replica cut-off: sizing for rate × cutoff/limit is
    // sizing for the rate at the capped per-replica load.
    OptionalInt needed = model.replicasFor(planned * cutoff / limit, target);
    int replicas;
    if (needed.isEmpty() || needed.getAsInt() > request.maxReplicas()) {
      replicas = request.maxReplicas();
      why.add(
          fmt(
              "capacity-limited: %s; using the maximum %d replicas and scaling admitted rates down",
              needed.isEmpty()
                  ? "no replica count reaches the planned rate (σ bounds capacity at "
                      + fmt("%.1f", limit * (1 - model.theta()) / Math.max(model.sigma(), 1e-300))
                      + " rps)"
                  : fmt(
                      "%d replicas needed > maxReplicas %d",
                      needed.getAsInt(), request.maxReplicas()),
              replicas));
    } else {
      replicas = Math.max(request.minReplicas(), needed.getAsInt());
      why.add(
          fmt(
              "fewest replicas meeting the target: %d, clamped to [%d, %d] → %d",
              needed.getAsInt(), request.minReplicas(), request.maxReplicas(), replicas));
    }
    double capacity = model.cutoffRps(target, replicas) * limit / cutoff;
    double usable = capacity / (1 + policy.headroom());
    why.add(
        fmt(
            "at %d replicas: predicted %s %.1f ms at %.1f rps; cut-off %.1f rps, usable %.1f rps after headroom",
            replicas, p, model.latencyMs(total, replicas), total, capacity, usable));
    Map<String, Double> admitted = shares(request.tenants(), total, usable);
    why.add(
        fmt(
            "admitted rate per tenant = %.1f rps × commitment / %.1f rps%s",
            usable,
            total,
            request.tenantsCountedBelowCommitment() > 0
                ? " (the class is overbooked while passive tenants stay passive)"
                : ""));
    if (request.perPodCutoffRps() > 0) {
      int linearReplicas = (int) Math.ceil(total / request.perPodCutoffRps());
      why.add(
          fmt(
              "linear baseline for comparison: ⌈%.1f / %.1f⌉ = %d replicas, predicted %s %s",
              total,
              request.perPodCutoffRps(),
              linearReplicas,
              p,
              linearReplicas >= 1
                  ? fmt("%.1f ms", model.latencyMs(total, linearReplicas))
                  : "n/a"));
    }
    return new CapacityPlan(replicas, admitted, capacity, METHOD, why);
  }

  /** Why the request's model cannot be used for this plan; empty when it can. */
  List<String> distrust(PlanRequest request) {
    ModelFit fit = request.fit();
    if (fit == null) {
      return List.of("no fitted model for class " + request.sloClass());
    }
    if (!fit.trusted()) {
      List<String> reasons = new ArrayList<>();
      reasons.add("the fitted model was refused");
      reasons.addAll(fit.reasons());
      return reasons;
    }
    if (fit.percentile() != request.percentile()) {
      return List.of(
          fmt(
              "the model predicts p%s but the class targets p%s",
              trim(fit.percentile()), trim(request.percentile())));
    }
    double cutoff = fit.model().perReplicaCutoffRps(request.targetLatencyMs());
    if (!(cutoff > 0)) {
      return List.of(
          fmt(
              "the target %.1f ms is below the model's latency at zero load",
              request.targetLatencyMs()));
    }
    double limit = policy.maxExtrapolation() * fit.maxMeasuredLoadRps();
    if (cutoff > limit) {
      return List.of(
          fmt(
              "the predicted per-replica cut-off %.1f rps extrapolates beyond %.1f × the highest measured load %.1f rps",
              cutoff, policy.maxExtrapolation(), fit.maxMeasuredLoadRps()));
    }
    return List.of();
  }

  private CapacityPlan fallback(PlanRequest request, List<String> reasons) {
    CapacityPlan base = linear.plan(request);
    List<String> why = new ArrayList<>();
    why.add("fallback to the linear baseline: " + String.join("; ", reasons));
    why.addAll(base.explanation());
    return new CapacityPlan(
        base.replicas(), base.admittedRps(), base.capacityRps(), FALLBACK_METHOD, why);
  }

  /**
   * What the tenants demand, for explanations: their commitments, and the rate sized for when
   * passive tenants are counted at their measured rate.
   */
  static String demand(PlanRequest request) {
    String committed =
        fmt("%d tenants commit %.1f rps", request.tenants().size(), request.totalCommittedRps());
    long passive = request.tenantsCountedBelowCommitment();
    return passive == 0
        ? committed
        : fmt(
            "%s; %d passive counted at their measured rate: sized for %.1f rps",
            committed, passive, request.totalSizedRps());
  }

  /**
   * Each tenant's commitment × {@code usable} / {@code total} (total = the sized rate, so an
   * abiding tenant keeps its commitment when passive ones are counted lower); equal shares when
   * nobody commits anything.
   */
  static Map<String, Double> shares(List<TenantDemand> tenants, double total, double usable) {
    Map<String, Double> admitted = new LinkedHashMap<>(Math.max(16, tenants.size() * 2));
    for (TenantDemand t : tenants) {
      double share = total > 0 ? t.committedRps() / total : 1.0 / tenants.size();
      admitted.put(t.tenantId(), usable * share);
    }
    return admitted;
  }
}
