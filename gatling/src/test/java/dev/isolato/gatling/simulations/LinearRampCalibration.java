package dev.isolato.gatling.simulations;

import dev.isolato.gatling.plan.LoadPlans;
import dev.isolato.gatling.plan.Settings;

/**
 * Calibration of one SLO class: the offered rate rises step by step (startRate + i * rateStep) and
 * T tenants share it evenly. Parameters: see docs/gatling.md.
 */
public class LinearRampCalibration extends PlannedLoadSimulation {
  public LinearRampCalibration() {
    this(Settings.fromSystemProperties());
  }

  private LinearRampCalibration(Settings settings) {
    super("ramp", LoadPlans.of(LinearRampCalibration.class.getSimpleName(), settings), settings);
  }
}
