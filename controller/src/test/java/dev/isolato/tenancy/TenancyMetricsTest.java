package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

/** The class gauges under the exact names helm/isolato/files/isolato-rules.yaml queries. */
class TenancyMetricsTest {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final TenancyMetrics metrics = new TenancyMetrics(registry);

  @Test
  void declaredClassHasTargetCutoffPivotAndNoCalibrationTime() {
    metrics.classFacts(Fixtures.sloClass("gold", 1, 4, 40));

    assertThat(registry.scrape())
        .contains(
            "isolato_class_target_seconds{class=\"gold\",percentile=\"95\"} 0.05",
            "isolato_class_cutoff_rps{class=\"gold\"} 40.0",
            "isolato_class_pivot_ratio{class=\"gold\"} 0.65")
        .doesNotContain("isolato_class_calibrated_timestamp_seconds{");
  }

  @Test
  void calibratedClassPublishesMeasuredCutoffAndWhen() {
    SloClass c = Fixtures.sloClass("bronze", 1, 4, 40);
    c.getSpec().latency.percentile = 99.9;
    c.setStatus(new SloClassStatus());
    c.getStatus().perPodCutoffRps = 55.5;
    c.getStatus().calibratedAt = "2026-11-20T10:00:00Z";

    metrics.classFacts(c);

    assertThat(registry.scrape())
        .contains(
            "isolato_class_target_seconds{class=\"bronze\",percentile=\"99.9\"} 0.05",
            "isolato_class_cutoff_rps{class=\"bronze\"} 55.5",
            "isolato_class_calibrated_timestamp_seconds{class=\"bronze\"} 1.7951688E9");
  }

  @Test
  void removedClassLeavesNoSeries() {
    metrics.classFacts(Fixtures.sloClass("gold", 1, 4, 40));
    metrics.classFacts(Fixtures.sloClass("silver", 1, 4, 20));

    metrics.classRemoved("gold");

    assertThat(registry.scrape())
        .doesNotContain("class=\"gold\"")
        .contains("isolato_class_cutoff_rps{class=\"silver\"} 20.0");
  }
}
