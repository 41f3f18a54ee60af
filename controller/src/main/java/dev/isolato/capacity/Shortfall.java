package dev.isolato.capacity;

import java.util.Optional;

/**
 * Commitments a class cannot carry even at its maximum replicas, at the per-pod cut-off in force
 * (the live one after drift).
 *
 * @param committedRps what the tenants commit in total
 * @param capacityRps maxReplicas × per-pod cut-off
 */
public record Shortfall(double committedRps, double capacityRps, int maxReplicas) {

  /** The shortfall, or empty when the maximum carries the commitments. */
  public static Optional<Shortfall> of(double committedRps, int maxReplicas, double perPodRps) {
    double capacity = maxReplicas * perPodRps;
    return committedRps > capacity
        ? Optional.of(new Shortfall(committedRps, capacity, maxReplicas))
        : Optional.empty();
  }

  public double shortRps() {
    return committedRps - capacityRps;
  }

  public double perPodRps() {
    return capacityRps / maxReplicas;
  }
}
