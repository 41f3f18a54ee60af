package dev.isolato.verification;

import com.fasterxml.jackson.databind.JsonNode;
import dev.isolato.capacity.LiveWindow;
import dev.isolato.metrics.ServiceMetrics;
import dev.isolato.profiler.PrometheusTenantRates;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pool windows from Prometheus, straight from the pods' series rather than the 1-minute recording
 * rules: a reaction within 60 s needs windows of a few scrapes. Per pass: the rate and pods up per
 * pool, each pod's rate, and per percentile in use the pool's and each pod's latency quantile.
 */
public final class PrometheusPoolWindows implements PoolWindows {
  private static final String POOL = "class, namespace";
  private static final String POD = "class, namespace, pod";
  private final PrometheusTenantRates prometheus;

  public PrometheusPoolWindows(PrometheusTenantRates prometheus) {
    this.prometheus = prometheus;
  }

  static String rateQuery(Duration window, String by) {
    return "sum by ("
        + by
        + ") (rate("
        + ServiceMetrics.REQUESTS
        + selector()
        + "["
        + window.toSeconds()
        + "s]))";
  }

  /**
   * Per pool, the lowest and the highest of its rate over two thirds of the window, sampled at
   * thirds of it (a rate needs two scrapes: the window is at least two scrape intervals longer).
   */
  static String rateRangeQuery(Duration window, String fn) {
    long third = Math.max(1, window.toSeconds() / 3);
    return fn
        + "_over_time(("
        + rateQuery(Duration.ofSeconds(2 * third), POOL)
        + ")["
        + window.toSeconds()
        + "s:"
        + third
        + "s])";
  }

  static String podsQuery() {
    return "count by (class, namespace) (up{job=\"" + ServiceMetrics.POOL_JOB + "\"} == 1)";
  }

  static String latencyQuery(Duration window, double percentile, String by) {
    return "histogram_quantile("
        + BigDecimal.valueOf(percentile / 100).stripTrailingZeros().toPlainString()
        + ", sum by ("
        + by
        + ", le) (rate("
        + ServiceMetrics.DURATION_BUCKET
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
    Map<Pool, Double> rates = byPool(rateQuery(window, POOL));
    Map<Pool, Map<String, Double>> podRates = byPod(rateQuery(window, POD));
    Map<Pool, Double> pods = byPool(podsQuery());
    Map<Pool, Double> lowest = byPool(rateRangeQuery(window, "min"));
    Map<Pool, Double> highest = byPool(rateRangeQuery(window, "max"));
    Map<Double, Map<Pool, Double>> latencies = new HashMap<>();
    Map<Double, Map<Pool, Map<String, Double>>> podLatencies = new HashMap<>();
    for (double p : percentiles) {
      latencies.put(p, byPool(latencyQuery(window, p, POOL)));
      podLatencies.put(p, byPod(latencyQuery(window, p, POD)));
    }
    Map<Pool, Map<Double, LiveWindow>> out = new HashMap<>();
    pods.forEach(
        (pool, n) -> {
          double rate = rates.getOrDefault(pool, 0.0);
          double peak = highest.getOrDefault(pool, Double.NaN);
          boolean steady = LiveWindow.steadyRate(lowest.getOrDefault(pool, Double.NaN), peak);
          Map<Double, LiveWindow> byPercentile = new HashMap<>();
          for (double p : percentiles) {
            double seconds = latencies.get(p).getOrDefault(pool, Double.NaN);
            Map<String, Double> podLatency = podLatencies.get(p).getOrDefault(pool, Map.of());
            List<LiveWindow.PodPoint> points = new ArrayList<>();
            podRates
                .getOrDefault(pool, Map.of())
                .forEach(
                    (pod, r) ->
                        points.add(
                            new LiveWindow.PodPoint(
                                r, podLatency.getOrDefault(pod, Double.NaN) * 1000)));
            byPercentile.put(
                p,
                new LiveWindow(
                    now, n.intValue(), rate / n, seconds * 1000, points, steady, peak / n));
          }
          out.put(pool, byPercentile);
        });
    return out;
  }

  private Map<Pool, Map<String, Double>> byPod(String query) {
    Map<Pool, Map<String, Double>> out = new HashMap<>();
    for (JsonNode s : prometheus.vector(query)) {
      String cls = s.at("/metric/class").asText(null);
      String ns = s.at("/metric/namespace").asText(null);
      String pod = s.at("/metric/pod").asText(null);
      double v = PrometheusTenantRates.value(s);
      if (cls != null && ns != null && pod != null && Double.isFinite(v)) {
        out.computeIfAbsent(new Pool(cls, ns), k -> new HashMap<>()).put(pod, v);
      }
    }
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
