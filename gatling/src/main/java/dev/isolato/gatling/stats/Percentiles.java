package dev.isolato.gatling.stats;

import dev.isolato.calibration.LatencySummary;
import dev.isolato.calibration.QuantileInterval;
import java.util.Arrays;

/**
 * Latency statistics of one set of requests, in milliseconds, as the calibration format wants them.
 * Percentiles use the nearest-rank method on the exact samples (no histogram error): p(q) is the
 * smallest sample with at least q% of the samples at or below it. The p95's 95 % confidence
 * interval is the samples at {@link QuantileInterval#p95(int)}'s ranks, a bound the sample cannot
 * give left out.
 */
public final class Percentiles {

  private static final double NANOS_PER_MILLI = 1_000_000.0;

  private Percentiles() {}

  /**
   * Summarises latencies given in nanoseconds; {@code errors} counts non-2xx answers plus failed
   * requests (timeouts, resets, refused). The array is sorted in place. With no samples every field
   * is 0 (the format's count 0 says there was nothing to measure).
   */
  public static LatencySummary ofNanos(long[] latenciesNanos, long errors) {
    if (errors < 0 || errors > latenciesNanos.length) {
      throw new IllegalArgumentException(
          "errors must be between 0 and the sample count " + latenciesNanos.length + ": " + errors);
    }
    if (latenciesNanos.length == 0) {
      return new LatencySummary(0, 0, 0, 0, 0, 0, 0);
    }
    Arrays.sort(latenciesNanos);
    int n = latenciesNanos.length;
    QuantileInterval ci = QuantileInterval.p95(n);
    return new LatencySummary(
        n,
        errors,
        millis(nearestRank(latenciesNanos, 50)),
        millis(nearestRank(latenciesNanos, 90)),
        millis(nearestRank(latenciesNanos, 95)),
        millis(nearestRank(latenciesNanos, 99)),
        millis(latenciesNanos[n - 1]),
        ci.hasLow() ? millis(latenciesNanos[ci.low() - 1]) : null,
        ci.hasHigh(n) ? millis(latenciesNanos[ci.high() - 1]) : null);
  }

  /** Nearest-rank percentile of sorted samples: index ceil(q/100 * n) - 1. */
  static long nearestRank(long[] sorted, double percent) {
    int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  /** Milliseconds rounded to microseconds: finer digits would be noise, not measurement. */
  private static double millis(long nanos) {
    return Math.round(nanos / 1_000.0) / (NANOS_PER_MILLI / 1_000.0);
  }
}
