package dev.isolato.api;

import java.util.List;

/**
 * A what-if for {@code POST /api/v1/plans:simulate}: a class, a tenant set and optional
 * overrides of the class's planning inputs.
 */
public record SimulateRequest(String sloClass, List<Demand> tenants, Overrides overrides) {

  /** A tenant of the what-if and its committed rate. */
  public record Demand(String tenantId, Double committedRps) {}

  /**
   * Planning inputs to use instead of the class's; null keeps the class's value.
   *
   * @param useModel false plans without the stored fit (the flagged linear fallback)
   */
  public record Overrides(Double percentile, Double targetMs, Integer minReplicas, Integer maxReplicas,
      Double perPodCutoffRps, Boolean useModel) {}
}
