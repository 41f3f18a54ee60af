package dev.isolato.scaling;

import java.util.OptionalInt;

/**
 * Pure: the direct path's decision. When a pool's offered rate needs more pods than it has at the
 * class's per-pod threshold, raise its replicas to that many (at most the class maximum) at once;
 * never lower them (KEDA or the HPA scale down, after their stabilisation window).
 *
 * <p>A raise needs two readings in a row ({@link #confirmed}): one reading is a rate over one
 * scrape interval timed by the scraper, and a scrape answered late or early moves it by ten per
 * cent or more: a steady 106 req/s once read as 119.7 for one second and scaled a pool out at 0.9
 * of its threshold (docs/autoscaling.md). The next reading of such jitter falls back, while a real
 * rise holds; it costs one interval.
 */
public final class FloorRaise {
  private FloorRaise() {}

  /**
   * The rate two readings in a row stand for: the lower one (NaN until there are two), so a pool is
   * raised only to what both needed.
   */
  public static double confirmed(double previousRps, double rateRps) {
    return Math.min(previousRps, rateRps);
  }

  public static OptionalInt decide(
      double rateRps, double perPodRps, int replicas, int maxReplicas) {
    if (!Double.isFinite(rateRps) || replicas >= maxReplicas) {
      return OptionalInt.empty();
    }
    int need = ScaleThreshold.podsFor(rateRps, perPodRps, maxReplicas);
    return need > replicas ? OptionalInt.of(need) : OptionalInt.empty();
  }
}
