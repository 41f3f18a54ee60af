package dev.isolato.gatling.simulations;

import dev.isolato.gatling.plan.LoadPlans;
import dev.isolato.gatling.plan.Settings;

/**
 * Gold and bronze tenants in a given ratio (4:1 ... 1:4) ramp their per-tenant rate side by side,
 * each class against its own Service; one calibration JSON per class. Parameters: see
 * docs/gatling.md.
 */
public class TenantMix extends PlannedLoadSimulation {
  public TenantMix() {
    this(Settings.fromSystemProperties());
  }

  private TenantMix(Settings settings) {
    super("mix", LoadPlans.of(TenantMix.class.getSimpleName(), settings), settings);
  }
}
