package dev.isolato.api;

import dev.isolato.calibration.CalibrationRun;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * A what-if for {@code POST /api/v1/plans:simulate}: a class, a tenant set and optional overrides
 * of the class's planning inputs.
 */
public record SimulateRequest(
    @Required @Pattern(CalibrationRun.NOT_BLANK) String sloClass,
    @Required @Size(max = Simulations.MAX_TENANTS) List<Demand> tenants,
    Overrides overrides) {

  /** A tenant of the what-if and its committed rate. */
  public record Demand(String tenantId, @Required Double committedRps) {}

  /**
   * Planning inputs to use instead of the class's; null keeps the class's value.
   *
   * @param useModel false plans without the stored fit (the flagged linear fallback)
   */
  public record Overrides(
      Double percentile,
      Double targetMs,
      Integer minReplicas,
      Integer maxReplicas,
      @Min(value = 0, inclusive = false) Double perPodCutoffRps,
      Boolean useModel) {}
}
