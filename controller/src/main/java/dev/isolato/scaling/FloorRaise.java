package dev.isolato.scaling;

import java.util.OptionalInt;

/**
 * Pure: the direct path's decision. When a pool's offered rate needs more pods than it has at the
 * class's per-pod threshold, raise its replicas to that many (at most the class maximum) at once;
 * never lower them (KEDA or the HPA scale down, after their stabilisation window).
 */
public final class FloorRaise {
  private FloorRaise() {}

  public static OptionalInt decide(
      double rateRps, double perPodRps, int replicas, int maxReplicas) {
    if (!Double.isFinite(rateRps) || replicas >= maxReplicas) {
      return OptionalInt.empty();
    }
    int need = ScaleThreshold.podsFor(rateRps, perPodRps, maxReplicas);
    return need > replicas ? OptionalInt.of(need) : OptionalInt.empty();
  }
}
