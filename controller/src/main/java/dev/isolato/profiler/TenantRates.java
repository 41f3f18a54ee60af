package dev.isolato.profiler;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/** Where the tenant profiler gets the rate each tenant offered over a window. */
public interface TenantRates {

  /**
   * The rates measured over one window.
   *
   * @param offeredRps per tenant id, requests per second its class's pods received (any status)
   * @param scrapedClasses classes whose pods were measured over the whole window: a tenant of such
   *     a class without a rate offered nothing (the pods export a tenant's counter only after its
   *     first request)
   */
  record Rates(Map<String, Double> offeredRps, Set<String> scrapedClasses) {
    public Rates {
      offeredRps = Map.copyOf(offeredRps);
      scrapedClasses = Set.copyOf(scrapedClasses);
    }

    /** The tenant's rate; 0 when its class was measured and it sent nothing; null when unknown. */
    public Double of(String tenantId, String sloClass) {
      Double r = offeredRps.get(tenantId);
      return r != null ? r : scrapedClasses.contains(sloClass) ? Double.valueOf(0) : null;
    }
  }

  /**
   * The rate each tenant offered over the last {@code window}.
   *
   * @throws RatesUnavailable when the source cannot answer
   */
  Rates offered(Duration window);

  /** The source did not answer usably; the message says why. */
  class RatesUnavailable extends RuntimeException {
    public RatesUnavailable(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
