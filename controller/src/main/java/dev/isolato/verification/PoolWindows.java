package dev.isolato.verification;

import dev.isolato.capacity.LiveWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/** Where the verification loop gets each pool's live window. */
public interface PoolWindows {

  /** A pool: its class and namespace. */
  record Pool(String sloClass, String namespace) {}

  /**
   * Every pool's window ending now, with its latency at each of {@code percentiles} (ms, by
   * percentile).
   *
   * @throws dev.isolato.profiler.TenantRates.RatesUnavailable when the source cannot answer
   */
  Map<Pool, Map<Double, LiveWindow>> read(Duration window, Set<Double> percentiles, Instant now);
}
