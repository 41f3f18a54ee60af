package dev.isolato.profiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PrometheusTenantRatesTest {
  final PrometheusTenantRates rates =
      new PrometheusTenantRates(URI.create("http://127.0.0.1:1"), HttpClient.newHttpClient());

  @Test
  void theQueriesAverageTheRecordedTenantRateAndRequireAWindowOfScrapedPods() {
    assertThat(PrometheusTenantRates.rateQuery(Duration.ofMinutes(10)))
        .isEqualTo("sum by (tenant) (avg_over_time(isolato:tenant_requests:rate1m[600s]))");
    assertThat(PrometheusTenantRates.scrapedQuery(Duration.ofMinutes(10)))
        .isEqualTo("min by (class) (min_over_time(isolato:class_pods_up:count[600s])) > 0");
  }

  @Test
  void aVectorAnswerIsRead() {
    // the shape of Prometheus 2.42's /api/v1/query answer
    String body =
        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
            + "{\"metric\":{\"tenant\":\"a\"},\"value\":[1763900000.123,\"12.5\"]},"
            + "{\"metric\":{\"tenant\":\"b\"},\"value\":[1763900000.123,\"NaN\"]}]}}";

    assertThat(rates.parse(200, body, "q")).hasSize(2);
    assertThat(rates.parse(200, body, "q").get(0).at("/metric/tenant").asText()).isEqualTo("a");
  }

  @Test
  void errorsSayWhatPrometheusAnswered() {
    assertThatThrownBy(
            () ->
                rates.parse(
                    400,
                    "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error\"}",
                    "q("))
        .isInstanceOf(TenantRates.RatesUnavailable.class)
        .hasMessage("Prometheus answered HTTP 400 to query q(: bad_data: parse error");
    assertThatThrownBy(() -> rates.parse(502, "<html>", "q"))
        .hasMessageContaining("HTTP 502 with no JSON");
    assertThatThrownBy(
            () ->
                rates.parse(
                    200,
                    "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}",
                    "q"))
        .hasMessageContaining("a matrix to query q, not a vector");
  }

  @Test
  void anUnreachablePrometheusIsUnavailableNotAnError() {
    assertThatThrownBy(() -> rates.offered(Duration.ofMinutes(10)))
        .isInstanceOf(TenantRates.RatesUnavailable.class)
        .hasMessageStartingWith("Prometheus at http://127.0.0.1:1 did not answer");
  }

  @Test
  void aTenantOfAScrapedClassWithoutARateOfferedNothing() {
    TenantRates.Rates r = new TenantRates.Rates(Map.of("a", 3.0), Set.of("gold"));

    assertThat(r.of("a", "gold")).isEqualTo(3.0);
    assertThat(r.of("b", "gold")).isEqualTo(0.0);
    assertThat(r.of("c", "bronze")).as("its class was not measured").isNull();
  }
}
