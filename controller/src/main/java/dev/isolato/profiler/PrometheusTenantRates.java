package dev.isolato.profiler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Tenant rates from Prometheus (issue 12 item 1's server and recording rules): the average over the
 * window of {@code isolato:tenant_requests:rate1m}, the one definition of a tenant's request rate
 * (every status, so refused requests count: an aggressive tenant offers more than it is admitted).
 * Prometheus already sums the pods, survives pod restarts (rate() handles counter resets) and keeps
 * the window; reading the pods' /metrics directly would mean scraping every pool pod and keeping
 * the history here.
 */
public final class PrometheusTenantRates implements TenantRates {
  static final String RATE = "isolato:tenant_requests:rate1m";
  static final String PODS_UP = "isolato:class_pods_up:count";
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final URI base;
  private final HttpClient http;
  private final ObjectMapper json = new ObjectMapper();

  public PrometheusTenantRates(URI base, HttpClient http) {
    this.base = base;
    this.http = http;
  }

  /** The PromQL of a tenant's average offered rate over {@code window}. */
  static String rateQuery(Duration window) {
    return "sum by (tenant) (avg_over_time(" + RATE + "[" + window.toSeconds() + "s]))";
  }

  /** The PromQL of the classes with pods scraped over the whole window. */
  static String scrapedQuery(Duration window) {
    return "min by (class) (min_over_time(" + PODS_UP + "[" + window.toSeconds() + "s])) > 0";
  }

  @Override
  public Rates offered(Duration window) {
    Map<String, Double> rates = new HashMap<>();
    for (JsonNode s : vector(rateQuery(window))) {
      String tenant = s.at("/metric/tenant").asText(null);
      double v = value(s);
      if (tenant != null && Double.isFinite(v)) {
        rates.put(tenant, v);
      }
    }
    Set<String> classes = new HashSet<>();
    for (JsonNode s : vector(scrapedQuery(window))) {
      String cls = s.at("/metric/class").asText(null);
      if (cls != null) {
        classes.add(cls);
      }
    }
    return new Rates(rates, classes);
  }

  /**
   * The result vector of an instant query.
   *
   * @throws RatesUnavailable when Prometheus does not answer usably
   */
  public JsonNode vector(String query) {
    URI uri =
        base.resolve("/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8));
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new RatesUnavailable("Prometheus at " + base + " did not answer: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RatesUnavailable("interrupted while asking Prometheus", e);
    }
    return parse(response.statusCode(), response.body(), query);
  }

  /**
   * The result vector of a query answer; a failed or non-vector answer is {@link RatesUnavailable}.
   */
  JsonNode parse(int status, String body, String query) {
    JsonNode root;
    try {
      root = json.readTree(body);
    } catch (IOException e) {
      throw new RatesUnavailable(
          "Prometheus answered HTTP " + status + " with no JSON to query " + query, e);
    }
    if (status != 200 || !"success".equals(root.path("status").asText())) {
      throw new RatesUnavailable(
          "Prometheus answered HTTP "
              + status
              + " to query "
              + query
              + ": "
              + root.path("errorType").asText("?")
              + ": "
              + root.path("error").asText("?"),
          null);
    }
    JsonNode data = root.path("data");
    if (!"vector".equals(data.path("resultType").asText())) {
      throw new RatesUnavailable(
          "Prometheus answered a "
              + data.path("resultType").asText("?")
              + " to query "
              + query
              + ", not a vector",
          null);
    }
    return data.path("result");
  }

  /** A vector sample's value; NaN when unreadable. */
  public static double value(JsonNode sample) {
    try {
      return Double.parseDouble(sample.path("value").path(1).asText());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
