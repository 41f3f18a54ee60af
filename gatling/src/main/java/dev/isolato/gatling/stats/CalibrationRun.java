package dev.isolato.gatling.stats;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * The calibration run format of docs/calibration-format.md (schemaVersion 1), field for field:
 * what one SLO class measured, step by step. Serialised with Jackson in declaration order.
 */
@JsonPropertyOrder({"schemaVersion", "runId", "sloClass", "partial", "context", "steps"})
public record CalibrationRun(int schemaVersion, String runId, String sloClass, boolean partial,
                             Map<String, Object> context, List<Step> steps) {

  /** The format version this module writes. */
  public static final int SCHEMA_VERSION = 1;

  /** One step: the offered and achieved rates, totals and per-tenant statistics. */
  @JsonPropertyOrder({"index", "offeredRps", "achievedRps", "durationSeconds", "total", "tenants"})
  public record Step(int index, double offeredRps, double achievedRps, double durationSeconds,
                     LatencySummary total, Map<String, LatencySummary> tenants) {
  }
}
