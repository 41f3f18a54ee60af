package dev.isolato.tenancy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The controller's own meters (Prometheus names start with isolato_). */
public class TenancyMetrics {
  private final MeterRegistry registry;
  private final MultiGauge tenants;
  private final Map<String, Map<String, Long>> tenantsByClass = new ConcurrentHashMap<>();

  public TenancyMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.tenants = MultiGauge.builder("isolato.tenants")
        .description("Tenants per SLO class and phase").register(registry);
  }

  /** API accepted → tenant served. */
  public void onboarded(String sloClass, String isolation, Duration latency) {
    Timer.builder("isolato.onboarding.latency")
        .description("From the API accepting a tenant to the tenant being served")
        .tags("class", sloClass, "isolation", isolation)
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(5)).maximumExpectedValue(Duration.ofMinutes(2))
        .register(registry).record(latency);
  }

  public Timer.Sample startReconcile() {
    return Timer.start(registry);
  }

  public void reconciled(Timer.Sample sample, String sloClass, boolean ok) {
    sample.stop(Timer.builder("isolato.reconcile.duration").description("Duration of one class reconcile")
        .tags("class", sloClass, "outcome", ok ? "success" : "error").register(registry));
    if (!ok) {
      Counter.builder("isolato.reconcile.errors").description("Reconciles that failed")
          .tags("class", sloClass).register(registry).increment();
    }
  }

  public void tablePushFailures(String sloClass, int n) {
    Counter.builder("isolato.table.push.failures").description("Pods that refused or missed a table push")
        .tags("class", sloClass).register(registry).increment(n);
  }

  /** Replaces the per-phase counts of one class. */
  public void tenantPhases(String sloClass, Map<String, Long> byPhase) {
    if (byPhase.isEmpty()) {
      tenantsByClass.remove(sloClass);
    } else {
      tenantsByClass.put(sloClass, Map.copyOf(byPhase));
    }
    List<MultiGauge.Row<?>> rows = tenantsByClass.entrySet().stream()
        .flatMap(c -> c.getValue().entrySet().stream()
            .map(p -> MultiGauge.Row.of(Tags.of("class", c.getKey(), "phase", p.getKey()), p.getValue())))
        .<MultiGauge.Row<?>>map(r -> r)
        .toList();
    tenants.register(rows, true);
  }
}
