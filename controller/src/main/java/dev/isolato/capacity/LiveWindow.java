package dev.isolato.capacity;

import java.time.Instant;

/**
 * One pool over one verification window, as measured from live traffic: how many pods served, the
 * requests each answered per second, and the latency at the class's percentile.
 *
 * @param latencyMs NaN when the pool answered nothing in the window (no percentile exists)
 */
public record LiveWindow(Instant at, int pods, double perPodRps, double latencyMs) {

  /** Whether the window carries evidence: traffic was served and a latency measured. */
  public boolean active() {
    return pods > 0 && perPodRps > 0 && Double.isFinite(latencyMs);
  }
}
