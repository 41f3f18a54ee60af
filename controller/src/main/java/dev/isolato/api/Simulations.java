package dev.isolato.api;

import dev.isolato.calibration.FieldError;
import dev.isolato.slo.PlanRequest;
import dev.isolato.slo.TenantDemand;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Pure: checks a what-if request and turns it into the engine's {@link PlanRequest}. */
final class Simulations {
  static final int MAX_TENANTS = 10_000;

  /** The engine's names of the planning inputs → their names under {@code overrides}. */
  private static final Map<String, String> OVERRIDE_FIELDS =
      Map.of(
          "percentile",
          "percentile",
          "targetLatencyMs",
          "targetMs",
          "minReplicas",
          "minReplicas",
          "maxReplicas",
          "maxReplicas",
          "perPodCutoffRps",
          "perPodCutoffRps");

  /** The engine's names of the planning inputs → where the class declares them. */
  private static final Map<String, String> SPEC_FIELDS =
      Map.of(
          "percentile",
          "spec.latency.percentile",
          "targetLatencyMs",
          "spec.latency.targetMs",
          "minReplicas",
          "spec.minReplicas",
          "maxReplicas",
          "spec.maxReplicas",
          "perPodCutoffRps",
          "spec.perPodCutoffRps");

  private Simulations() {}

  /**
   * Errors that need no class: missing fields, too many tenants, a per-pod cut-off that is not
   * positive.
   */
  static List<FieldError> requestErrors(SimulateRequest r) {
    List<FieldError> e = new ArrayList<>();
    if (r.sloClass() == null || r.sloClass().isBlank()) {
      e.add(new FieldError("sloClass", "is required"));
    }
    if (r.tenants() == null) {
      e.add(
          new FieldError(
              "tenants", "is required (a list of {tenantId, committedRps}, may be empty)"));
    } else if (r.tenants().size() > MAX_TENANTS) {
      e.add(
          new FieldError(
              "tenants",
              "must have at most " + MAX_TENANTS + " entries, had " + r.tenants().size()));
    } else {
      for (int i = 0; i < r.tenants().size(); i++) {
        SimulateRequest.Demand d = r.tenants().get(i);
        if (d == null) {
          e.add(new FieldError("tenants[" + i + "]", "is required"));
        } else if (d.committedRps() == null) {
          e.add(new FieldError("tenants[" + i + "].committedRps", "is required"));
        }
      }
    }
    SimulateRequest.Overrides o = r.overrides();
    if (o != null && o.perPodCutoffRps() != null && !(o.perPodCutoffRps() > 0)) {
      e.add(
          new FieldError(
              "overrides.perPodCutoffRps", "must be greater than 0, was " + o.perPodCutoffRps()));
    }
    return e;
  }

  /** The class's request {@code base} for the what-if's tenants, with the overrides applied. */
  static PlanRequest apply(PlanRequest base, SimulateRequest r) {
    List<TenantDemand> demands =
        r.tenants().stream().map(d -> new TenantDemand(d.tenantId(), d.committedRps())).toList();
    SimulateRequest.Overrides o = r.overrides();
    if (o == null) {
      return base.withTenants(demands);
    }
    return new PlanRequest(
        base.sloClass(),
        o.percentile() != null ? o.percentile() : base.percentile(),
        o.targetMs() != null ? o.targetMs() : base.targetLatencyMs(),
        o.minReplicas() != null ? o.minReplicas() : base.minReplicas(),
        o.maxReplicas() != null ? o.maxReplicas() : base.maxReplicas(),
        o.perPodCutoffRps() != null ? o.perPodCutoffRps() : base.perPodCutoffRps(),
        demands,
        Boolean.FALSE.equals(o.useModel()) ? null : base.fit(),
        // an overridden cut-off plans at that cut-off: no pod size choice
        o.perPodCutoffRps() != null ? null : base.sizing());
  }

  /**
   * The engine's errors on a what-if, split into the request's (renamed to their JSON path) and the
   * class's.
   */
  record Split(List<FieldError> request, List<FieldError> cls) {}

  static Split split(List<dev.isolato.calibration.FieldError> errors, SimulateRequest r) {
    List<FieldError> request = new ArrayList<>();
    List<FieldError> cls = new ArrayList<>();
    for (dev.isolato.calibration.FieldError e : errors) {
      String override = OVERRIDE_FIELDS.get(e.field());
      if (override == null) {
        request.add(new FieldError(e.field(), e.message()));
      } else if (overridden(r.overrides(), override)) {
        request.add(new FieldError("overrides." + override, e.message()));
      } else {
        cls.add(new FieldError(SPEC_FIELDS.get(e.field()), e.message()));
      }
    }
    return new Split(request, cls);
  }

  private static boolean overridden(SimulateRequest.Overrides o, String field) {
    if (o == null) {
      return false;
    }
    return switch (field) {
      case "percentile" -> o.percentile() != null;
      case "targetMs" -> o.targetMs() != null;
      case "minReplicas" -> o.minReplicas() != null;
      case "maxReplicas" -> o.maxReplicas() != null;
      default -> o.perPodCutoffRps() != null;
    };
  }
}
