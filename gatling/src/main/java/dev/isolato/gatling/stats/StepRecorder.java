package dev.isolato.gatling.stats;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Collects every request's outcome by SLO class, step and tenant while a simulation runs, and
 * counts requests in flight per step so that a step can be told complete (all its requests
 * answered or failed) from one that was cut short.
 */
public final class StepRecorder {

  private record Cell(String sloClass, int step, String tenant) {
  }

  private record StepKey(String sloClass, int step) {
  }

  private final Map<Cell, Samples> cells = new ConcurrentHashMap<>();
  private final Map<StepKey, AtomicLong> inFlight = new ConcurrentHashMap<>();

  /** A request of this class and step is about to be sent. */
  public void started(String sloClass, int step) {
    inFlight.computeIfAbsent(new StepKey(sloClass, step), k -> new AtomicLong()).incrementAndGet();
  }

  /**
   * A request finished.
   *
   * @param ok true for a 2xx answer; false for any other status or a failed request
   */
  public void finished(String sloClass, int step, String tenant, long latencyNanos, boolean ok,
                       long startMillis, long endMillis) {
    if (latencyNanos < 0) {
      throw new IllegalArgumentException("latencyNanos must be >= 0: " + latencyNanos);
    }
    cells.computeIfAbsent(new Cell(sloClass, step, tenant), k -> new Samples())
        .add(latencyNanos, ok, startMillis, endMillis);
    AtomicLong flying = inFlight.get(new StepKey(sloClass, step));
    if (flying != null) {
      flying.decrementAndGet();
    }
  }

  /** Requests of this step that were sent and have not finished yet. */
  public long inFlight(String sloClass, int step) {
    AtomicLong flying = inFlight.get(new StepKey(sloClass, step));
    return flying == null ? 0 : flying.get();
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
