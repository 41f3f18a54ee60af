package dev.isolato.verification;

import com.fasterxml.jackson.databind.JsonNode;
import dev.isolato.capacity.LiveWindow;
import dev.isolato.metrics.ServiceMetrics;
import dev.isolato.profiler.PrometheusTenantRates;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Pool windows from Prometheus, straight from the pods' series rather than the 1-minute recording
 * rules: a reaction within 60 s needs windows of a few scrapes. Three instant queries per pass
 * (rate, pods up, one latency quantile per percentile in use), summed per pool namespace.
 */
public final class PrometheusPoolWindows implements PoolWindows {
  private final PrometheusTenantRates prometheus;

  public PrometheusPoolWindows(PrometheusTenantRates prometheus) {
    this.prometheus = prometheus;
  }

  static String rateQuery(Duration window) {
    return "sum by (class, namespace) (rate("
        + ServiceMetrics.REQUESTS_TOTAL
        + selector()
        + "["
        + window.toSeconds()
        + "s]))";
  }

  static String podsQuery() {
    return "count by (class, namespace) (up{job=\"" + ServiceMetrics.POOL_JOB + "\"} == 1)";
  }

  static String latencyQuery(Duration window, double percentile) {
    return "histogram_quantile("
        + BigDecimal.valueOf(percentile / 100).stripTrailingZeros().toPlainString()
        + ", sum by (class, namespace, le) (rate("
        + ServiceMetrics.REQUEST_DURATION_BUCKET
        + selector()
        + "["
        + window.toSeconds()
        + "s])))";
  }

  private static String selector() {
    return "{tenant!=\"" + ServiceMetrics.UNKNOWN_TENANT + "\"}";
  }

  @Override
  public Map<Pool, Map<Double, LiveWindow>> read(
      Duration window, Set<Double> percentiles, Instant now) {
    Map<Pool, Double> rates = byPool(rateQuery(window));
    Map<Pool, Double> pods = byPool(podsQuery());
    Map<Double, Map<Pool, Double>> latencies = new HashMap<>();
    for (double p : percentiles) {
      latencies.put(p, byPool(latencyQuery(window, p)));
    }
    Map<Pool, Map<Double, LiveWindow>> out = new HashMap<>();
    pods.forEach(
        (pool, n) -> {
          double rate = rates.getOrDefault(pool, 0.0);
          Map<Double, LiveWindow> byPercentile = new HashMap<>();
          for (double p : percentiles) {
            double seconds = latencies.get(p).getOrDefault(pool, Double.NaN);
            byPercentile.put(p, new LiveWindow(now, n.intValue(), rate / n, seconds * 1000));
          }
          out.put(pool, byPercentile);
        });
    return out;
  }

  private Map<Pool, Double> byPool(String query) {
    Map<Pool, Double> out = new HashMap<>();
    for (JsonNode s : prometheus.vector(query)) {
      String cls = s.at("/metric/class").asText(null);
      String ns = s.at("/metric/namespace").asText(null);
      double v = PrometheusTenantRates.value(s);
      if (cls != null && ns != null && Double.isFinite(v)) {
        out.put(new Pool(cls, ns), v);
      }
    }
    return out;
  }
}
