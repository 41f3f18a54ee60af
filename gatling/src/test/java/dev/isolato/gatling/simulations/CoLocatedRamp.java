package dev.isolato.gatling.simulations;

import dev.isolato.gatling.plan.LoadPlans;
import dev.isolato.gatling.plan.Settings;

/**
 * Two or more classes on the same node ramped side by side, each at its own rates, in steps of
 * equal duration; one calibration JSON per class, label {@code colocated}. With the classes'
 * tenants given CPU, memory or I/O profiles this is the SAC'20 homogeneous and heterogeneous
 * co-location layout. Parameters: see docs/gatling.md.
 */
public class CoLocatedRamp extends PlannedLoadSimulation {
  public CoLocatedRamp() {
    this(Settings.fromSystemProperties());
  }

  private CoLocatedRamp(Settings settings) {
    super("colocated", LoadPlans.of(CoLocatedRamp.class.getSimpleName(), settings), settings);
  }
}
