package dev.isolato.scaling;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Pure: a pool's offered request rate from successive scrapes of its pods' counters. Per pod, the
 * rate is the growth of its answered-requests counter plus the growth of its in-flight gauge
 * (requests taken but not yet answered: an overloaded pod answers at its capacity while the offered
 * load queues), over the time between two scrapes. A pod seen for the first time, or whose counter
 * went down (restart), contributes from its next scrape on.
 */
public final class PoolRate {
  /** One scrape of one pod: {@code answered} requests so far and {@code inFlight} now. */
  public record Sample(double answered, double inFlight, long nanos) {}

  private final Map<String, Sample> last = new HashMap<>();

  /**
   * Adds the scrapes of this round ({@code pod -> sample}; pods not scraped are left out) and
   * returns the pool's rate in requests per second, or NaN when no pod has two samples yet.
   */
  public synchronized double update(Map<String, Sample> round) {
    double sum = 0;
    boolean any = false;
    for (Map.Entry<String, Sample> e : round.entrySet()) {
      Sample now = e.getValue();
      Sample before = last.put(e.getKey(), now);
      if (before == null || now.answered() < before.answered() || now.nanos() <= before.nanos()) {
        continue;
      }
      double seconds = (now.nanos() - before.nanos()) / 1e9;
      sum +=
          (now.answered() - before.answered() + Math.max(0, now.inFlight() - before.inFlight()))
              / seconds;
      any = true;
    }
    last.keySet().retainAll(Set.copyOf(round.keySet()));
    return any ? sum : Double.NaN;
  }
}
