package dev.isolato.pipeline;

import dev.isolato.metrics.Exposition;
import java.util.Map;

/**
 * Pure: {@code count} operations that took {@code seconds} together (each call's wall time,
 * summed), as a component's histogram counts them between two scrapes of its {@code /metrics}.
 * Histogram sums and counts are exact, so a mean over a run is exact, though bucket-free: no
 * per-object timeline.
 */
public record Measure(long count, double seconds) {

  public static final Measure NONE = new Measure(0, 0);

  /** Seconds per operation; 0 when none ran. */
  public double mean() {
    return count == 0 ? 0 : seconds / count;
  }

  public Measure plus(Measure other) {
    return new Measure(count + other.count, seconds + other.seconds);
  }

  /**
   * The growth of {@code histogram}'s series that carry {@code labels} from {@code before} to
   * {@code after} (two expositions of the same component). A counter that went down (a restarted
   * component) reads as {@link #NONE}.
   */
  public static Measure between(
      String before, String after, String histogram, Map<String, String> labels) {
    double n =
        Exposition.sum(after, histogram + "_count", labels)
            - Exposition.sum(before, histogram + "_count", labels);
    double t =
        Exposition.sum(after, histogram + "_sum", labels)
            - Exposition.sum(before, histogram + "_sum", labels);
    return n > 0 && t >= 0 ? new Measure(Math.round(n), t) : NONE;
  }
}
