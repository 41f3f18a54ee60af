package dev.isolato.gatling.simulations;

import dev.isolato.gatling.plan.LoadPlans;
import dev.isolato.gatling.plan.Settings;

/**
 * One tenant sends k times its committed rate (one step per factor k) while the others stay at
 * theirs; shows whether abiding tenants keep their latency. Parameters: see docs/gatling.md.
 */
public class AggressiveTenant extends PlannedLoadSimulation {
  public AggressiveTenant() {
    this(Settings.fromSystemProperties());
  }

  private AggressiveTenant(Settings settings) {
    super("aggressive", LoadPlans.of(AggressiveTenant.class.getSimpleName(), settings), settings);
  }
}
