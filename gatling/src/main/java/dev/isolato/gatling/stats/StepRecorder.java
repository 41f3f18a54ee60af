package dev.isolato.gatling.stats;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Collects every request's outcome by SLO class, step and tenant while a simulation runs, and
 * counts planned against finished requests per step so that a step can be told complete (every
 * planned request answered or failed) from one that was cut short. Counting planned requests, not
 * timing the step, keeps a step whose answers all came back early from looking unfinished.
 */
public final class StepRecorder {

  private record Cell(String sloClass, int step, String tenant) {}

  private record StepKey(String sloClass, int step) {}

  private final Map<Cell, Samples> cells = new ConcurrentHashMap<>();
  private final Map<StepKey, AtomicLong> planned = new ConcurrentHashMap<>();
  private final Map<StepKey, AtomicLong> done = new ConcurrentHashMap<>();

  /** The plan will send {@code requests} more requests in this class and step. */
  public void expect(String sloClass, int step, long requests) {
    if (requests < 0) {
      throw new IllegalArgumentException("requests must be >= 0: " + requests);
    }
    planned.computeIfAbsent(new StepKey(sloClass, step), k -> new AtomicLong()).addAndGet(requests);
  }

  /**
   * A request finished.
   *
   * @param ok true for a 2xx answer; false for any other status or a failed request
   */
  public void finished(
      String sloClass,
      int step,
      String tenant,
      long latencyNanos,
      boolean ok,
      long startMillis,
      long endMillis) {
    if (latencyNanos < 0) {
      throw new IllegalArgumentException("latencyNanos must be >= 0: " + latencyNanos);
    }
    cells
        .computeIfAbsent(new Cell(sloClass, step, tenant), k -> new Samples())
        .add(latencyNanos, ok, startMillis, endMillis);
    done.computeIfAbsent(new StepKey(sloClass, step), k -> new AtomicLong()).incrementAndGet();
  }

  /** True when requests were planned for this step and every one of them has finished. */
  public boolean complete(String sloClass, int step) {
    StepKey key = new StepKey(sloClass, step);
    long expected = planned.getOrDefault(key, new AtomicLong()).get();
    return expected > 0 && done.getOrDefault(key, new AtomicLong()).get() >= expected;
  }

  /** True when at least one request of this step was recorded. */
  public boolean hasData(String sloClass, int step) {
    return cells.keySet().stream().anyMatch(c -> c.sloClass.equals(sloClass) && c.step == step);
  }

  /** Snapshot of one tenant's cell, or null when that tenant sent nothing in this step. */
  Samples.Snapshot snapshot(String sloClass, int step, String tenant) {
    Samples samples = cells.get(new Cell(sloClass, step, tenant));
    return samples == null ? null : samples.snapshot();
  }
}
