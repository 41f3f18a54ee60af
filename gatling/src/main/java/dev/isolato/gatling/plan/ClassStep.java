package dev.isolato.gatling.plan;

import java.util.List;

/**
 * One step of the load sent to one SLO class: every listed tenant sends at its constant rate from
 * {@code offsetSeconds} (after the run starts) for {@code durationSeconds}.
 */
public record ClassStep(
    int index, double offsetSeconds, double durationSeconds, List<TenantLoad> tenants) {
  public ClassStep {
    if (index < 0 || offsetSeconds < 0 || !(durationSeconds > 0)) {
      throw new IllegalArgumentException(
          "step "
              + index
              + ": index and offset must be >= 0 and "
              + "duration > 0 (offset "
              + offsetSeconds
              + " s, duration "
              + durationSeconds
              + " s)");
    }
    if (tenants.isEmpty()) {
      throw new IllegalArgumentException("step " + index + " has no tenants");
    }
    tenants = List.copyOf(tenants);
  }

  /** The class's offered rate in this step: the sum of its tenants' rates. */
  public double offeredRps() {
    return tenants.stream().mapToDouble(TenantLoad::rps).sum();
  }

  /**
   * Each tenant's exact request count in this step (its rate times the duration, rounded, at least
   * 1): what both instruments send (the Gatling simulations and the open-loop referee's plan).
   */
  public long[] counts() {
    return tenants.stream()
        .mapToLong(t -> Math.max(1, Math.round(t.rps() * durationSeconds)))
        .toArray();
  }

  /** When this step's injection ends, in seconds after the run starts. */
  public double endSeconds() {
    return offsetSeconds + durationSeconds;
  }
}
