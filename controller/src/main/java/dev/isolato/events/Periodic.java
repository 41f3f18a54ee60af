package dev.isolato.events;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** The leader's periodic loops (profiler, capacity verification): one daemon thread each. */
public final class Periodic {
  private Periodic() {}

  /**
   * Runs {@code pass} every {@code interval} (fixed delay) on a daemon thread named {@code name};
   * {@code pass} must catch what it can fail with, or the schedule would stop at its first failure.
   */
  public static ScheduledExecutorService every(Duration interval, String name, Runnable pass) {
    ScheduledExecutorService executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, name);
              t.setDaemon(true);
              return t;
            });
    ScheduledFuture<?> unused =
        executor.scheduleWithFixedDelay(
            pass, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    return executor;
  }
}
