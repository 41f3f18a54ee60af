package dev.isolato.gatling.stats;

import dev.isolato.calibration.LatencySummary;
import java.util.Arrays;

/**
 * The raw measurements of one (class, step, tenant) cell: every latency, the error count and the
 * wall-clock span the requests covered. Thread-safe: Gatling completes requests on several
 * event-loop threads at once. Kept exact (a few thousand longs per step) rather than bucketed.
 */
final class Samples {
  private long[] latenciesNanos = new long[64];
  private int size;
  private long errors;
  private long firstStartMillis = Long.MAX_VALUE;
  private long lastEndMillis = Long.MIN_VALUE;

  synchronized void add(long latencyNanos, boolean ok, long startMillis, long endMillis) {
    if (size == latenciesNanos.length) {
      latenciesNanos = Arrays.copyOf(latenciesNanos, size * 2);
    }
    latenciesNanos[size++] = latencyNanos;
    if (!ok) {
      errors++;
    }
    firstStartMillis = Math.min(firstStartMillis, startMillis);
    lastEndMillis = Math.max(lastEndMillis, endMillis);
  }

  synchronized Snapshot snapshot() {
    return new Snapshot(
        Arrays.copyOf(latenciesNanos, size), errors, firstStartMillis, lastEndMillis);
  }

  /** A copy taken under the lock (a class, not a record: records compare arrays by identity). */
  static final class Snapshot {
    private final long[] latenciesNanos;
    private final long errors;
    private final long firstStartMillis;
    private final long lastEndMillis;

    Snapshot(long[] latenciesNanos, long errors, long firstStartMillis, long lastEndMillis) {
      this.latenciesNanos = latenciesNanos;
      this.errors = errors;
      this.firstStartMillis = firstStartMillis;
      this.lastEndMillis = lastEndMillis;
    }

    long[] latenciesNanos() {
      return latenciesNanos;
    }

    long errors() {
      return errors;
    }

    long firstStartMillis() {
      return firstStartMillis;
    }

    long lastEndMillis() {
      return lastEndMillis;
    }

    long okCount() {
      return latenciesNanos.length - errors;
    }

    LatencySummary summary() {
      return Percentiles.ofNanos(latenciesNanos.clone(), errors);
    }
  }
}
