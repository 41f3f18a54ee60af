package dev.isolato.slo;

import java.util.Map;

/**
 * One step of a calibration run: the load generator offered {@code offeredRps} for
 * {@code durationSeconds} and the workload completed {@code achievedRps}.
 *
 * @param tenants per tenant id; may be empty when only totals were measured
 */
public record CalibrationStep(
    int index,
    double offeredRps,
    double achievedRps,
    double durationSeconds,
    LatencySummary total,
    Map<String, LatencySummary> tenants) {

  public CalibrationStep {
    tenants = tenants == null ? Map.of() : Map.copyOf(tenants);
  }
}
