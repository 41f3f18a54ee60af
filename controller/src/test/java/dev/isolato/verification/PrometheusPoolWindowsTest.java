package dev.isolato.verification;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.isolato.capacity.LiveWindow;
import dev.isolato.profiler.PrometheusTenantRates;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The queries and how their answers join into pool windows, against a local HTTP server answering
 * as Prometheus' query API does (Prometheus itself runs in capacity-e2e.sh).
 */
class PrometheusPoolWindowsTest {
  HttpServer server;

  @AfterEach
  void stop() {
    server.stop(0);
  }

  static String vector(String... samples) {
    return "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
        + String.join(",", samples)
        + "]}}";
  }

  static String sample(String pod, double v) {
    return "{\"metric\":{\"class\":\"gold\",\"namespace\":\"isolato-c-gold\""
        + (pod == null ? "" : ",\"pod\":\"" + pod + "\"")
        + "},\"value\":[1700000000,\""
        + v
        + "\"]}";
  }

  static final Duration W = Duration.ofSeconds(15);

  LiveWindow serve(Map<String, String> answers) throws Exception {
    server =
        HttpServer.create(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/api/v1/query",
        ex -> {
          String q =
              URLDecoder.decode(
                  ex.getRequestURI().getRawQuery().substring("query=".length()),
                  StandardCharsets.UTF_8);
          byte[] body = answers.getOrDefault(q, vector()).getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    server.start();
    PrometheusPoolWindows windows =
        new PrometheusPoolWindows(
            new PrometheusTenantRates(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                HttpClient.newHttpClient()));
    return windows
        .read(W, Set.of(95.0), Instant.parse("2026-11-27T12:00:00Z"))
        .get(new PoolWindows.Pool("gold", "isolato-c-gold"))
        .get(95.0);
  }

  @Test
  void aWindowWhoseRateFellByMoreThanAFifthIsNotSteady() throws Exception {
    assertThat(PrometheusPoolWindows.rateRangeQuery(W, "min"))
        .isEqualTo(
            "min_over_time((sum by (class, namespace) (rate(isolato_gate_requests_total"
                + "{tenant!=\"_unknown\"}[10s])))[15s:5s])");
    Map<String, String> answers =
        Map.of(
            PrometheusPoolWindows.rateQuery(W, "class, namespace"),
            vector(sample(null, 56)),
            PrometheusPoolWindows.podsQuery(),
            vector(sample(null, 1)),
            PrometheusPoolWindows.latencyQuery(W, 95, "class, namespace"),
            vector(sample(null, 0.6)),
            PrometheusPoolWindows.rateRangeQuery(W, "min"),
            vector(sample(null, 0)),
            PrometheusPoolWindows.rateRangeQuery(W, "max"),
            vector(sample(null, 150)));
    LiveWindow lw = serve(answers);
    assertThat(lw.steady()).isFalse();
    assertThat(lw.peakPerPodRps()).as("the highest 10 s rate, per pod").isEqualTo(150);
  }

  @Test
  void joinsRatePodsAndLatencyPerPoolAndPerPod() throws Exception {
    Duration w = W;
    Map<String, String> answers =
        Map.of(
            PrometheusPoolWindows.rateQuery(w, "class, namespace"),
            vector(sample(null, 90)),
            PrometheusPoolWindows.rateQuery(w, "class, namespace, pod"),
            vector(sample("a", 66), sample("b", 24)),
            PrometheusPoolWindows.podsQuery(),
            vector(sample(null, 2)),
            PrometheusPoolWindows.latencyQuery(w, 95, "class, namespace"),
            vector(sample(null, 0.8)),
            PrometheusPoolWindows.latencyQuery(w, 95, "class, namespace, pod"),
            vector(sample("a", 1.2), sample("b", 0.01)),
            PrometheusPoolWindows.rateRangeQuery(w, "min"),
            vector(sample(null, 85)),
            PrometheusPoolWindows.rateRangeQuery(w, "max"),
            vector(sample(null, 95)));
    LiveWindow lw = serve(answers);

    assertThat(PrometheusPoolWindows.latencyQuery(w, 95, "class, namespace"))
        .startsWith("histogram_quantile(0.95, sum by (class, namespace, le) (rate(")
        .contains("{tenant!=\"_unknown\"}[15s]");
    assertThat(lw.pods()).isEqualTo(2);
    assertThat(lw.perPodRps()).isEqualTo(45);
    assertThat(lw.latencyMs()).isEqualTo(800);
    assertThat(lw.podPoints())
        .containsExactlyInAnyOrder(
            new LiveWindow.PodPoint(66, 1200), new LiveWindow.PodPoint(24, 10));
    assertThat(lw.perPod()).extracting(LiveWindow::pods).isEqualTo(List.of(1, 1));
    assertThat(lw.steady()).as("85 to 95 req/s: within a fifth").isTrue();
  }
}
