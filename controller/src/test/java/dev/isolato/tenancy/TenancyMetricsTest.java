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

  /**
   * A scrape while the reconciler re-publishes a class (micrometer#6851): re-registering a row's
   * gauge let a scrape see it twice, DuplicateLabelsException, and CI's /actuator/prometheus
   * answered 500. The rows stay registered and read the live facts.
   */
  @Test
  void aScrapeDuringRepublishingSeesEachSeriesOnceAndTheLatestValue() throws Exception {
    var stop = new java.util.concurrent.atomic.AtomicBoolean();
    Thread publisher =
        new Thread(
            () -> {
              for (int i = 0; !stop.get(); i++) {
                // every publication re-publishes every class: many rows, many chances
                metrics.classFacts(Fixtures.sloClass("c" + i % 100, 1, 4, 10));
                metrics.classFacts(Fixtures.sloClass("ans", 1, 4, 40 + (i % 3)));
                metrics.tenantPhases("ans", java.util.Map.of(TenantPhase.Serving, (long) i % 5));
              }
            });
    publisher.start();
    try {
      for (int i = 0; i < 1000; i++) {
        registry.scrape();
      }
    } finally {
      stop.set(true);
      publisher.join();
    }
    metrics.classFacts(Fixtures.sloClass("ans", 1, 4, 77));
    assertThat(registry.scrape().lines().filter(l -> l.contains("class=\"ans\"")))
        .contains("isolato_class_cutoff_rps{class=\"ans\"} 77.0")
        .filteredOn(l -> l.startsWith("isolato_class_target_seconds{"))
        .hasSize(1);
  }
}
