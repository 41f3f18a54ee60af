package dev.isolato.calibration;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import java.util.Map;

/**
 * One step of a calibration run: the load generator offered {@code offeredRps} for {@code
 * durationSeconds} and the workload completed {@code achievedRps}.
 *
 * @param tenants per tenant id; may be empty when only totals were measured
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CalibrationStep(
    @Required @Min(0) int index,
    @Required @Min(value = 0, inclusive = false) double offeredRps,
    @Required @Min(0) double achievedRps,
    @Required @Min(value = 0, inclusive = false) double durationSeconds,
    @Required LatencySummary total,
    Map<String, LatencySummary> tenants) {

  public CalibrationStep {
    tenants = CalibrationContext.ordered(tenants);
  }
}
