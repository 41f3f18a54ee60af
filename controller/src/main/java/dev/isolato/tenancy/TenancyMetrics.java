package dev.isolato.tenancy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The controller's own meters (Prometheus names start with isolato_). */
public class TenancyMetrics {
  private final MeterRegistry registry;
  private final MultiGauge tenants;
  private final Map<String, Map<TenantPhase, Long>> tenantsByClass = new ConcurrentHashMap<>();
  // What the Prometheus rules (helm/isolato/files/isolato-rules.yaml) compare measurements with.
  private final MultiGauge classTarget;
  private final MultiGauge classCutoff;
  private final MultiGauge classPivot;
  private final MultiGauge classCalibrated;
  private final Map<String, ClassFacts> classes = new ConcurrentHashMap<>();

  /**
   * One class's target, per-pod cut-off the planner uses, pivot, and last calibration (null when
   * none).
   */
  record ClassFacts(
      double percentile,
      double targetSeconds,
      double cutoffRps,
      double pivotRatio,
      Instant calibratedAt) {
    static ClassFacts of(SloClass c) {
      SloClassSpec s = c.getSpec();
      String at = c.getStatus() == null ? null : c.getStatus().calibratedAt;
      return new ClassFacts(
          s.latency.percentile,
          s.latency.targetMs / 1000.0,
          CalibrationStatusMapper.perPodCutoff(c),
          s.pivotPercent / 100.0,
          CalibrationStatusMapper.perPodCutoffMeasured(c) ? instant(at) : null);
    }

    /** A status written by hand may hold anything; an unreadable time is no calibration time. */
    private static Instant instant(String at) {
      try {
        return at == null ? null : Instant.parse(at);
      } catch (DateTimeParseException e) {
        return null;
      }
    }
  }

  public TenancyMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.tenants =
        MultiGauge.builder("isolato.tenants")
            .description("Tenants per SLO class and phase")
            .register(registry);
    this.classTarget =
        MultiGauge.builder("isolato.class.target.seconds")
            .description("Latency target of an SLO class at its percentile")
            .register(registry);
    this.classCutoff =
        MultiGauge.builder("isolato.class.cutoff.rps")
            .description(
                "Per-pod cut-off the planner uses: measured by the last calibration, else declared")
            .register(registry);
    this.classPivot =
        MultiGauge.builder("isolato.class.pivot.ratio")
            .description("Autoscaler pivot of an SLO class (pivotPercent / 100)")
            .register(registry);
    this.classCalibrated =
        MultiGauge.builder("isolato.class.calibrated.timestamp.seconds")
            .description("When the class's cut-off was last measured (absent: never)")
            .register(registry);
  }

  /** Publishes a class's target, cut-off, pivot and calibration time. */
  public void classFacts(SloClass c) {
    classes.put(c.getMetadata().getName(), ClassFacts.of(c));
    publishClasses();
  }

  public void classRemoved(String sloClass) {
    classes.remove(sloClass);
    publishClasses();
  }

  private void publishClasses() {
    List<MultiGauge.Row<?>> target = new ArrayList<>();
    List<MultiGauge.Row<?>> cutoff = new ArrayList<>();
    List<MultiGauge.Row<?>> pivot = new ArrayList<>();
    List<MultiGauge.Row<?>> calibrated = new ArrayList<>();
    classes.forEach(
        (name, f) -> {
          Tags tags = Tags.of("class", name);
          String percentile =
              BigDecimal.valueOf(f.percentile()).stripTrailingZeros().toPlainString();
          target.add(MultiGauge.Row.of(tags.and("percentile", percentile), f.targetSeconds()));
          cutoff.add(MultiGauge.Row.of(tags, f.cutoffRps()));
          pivot.add(MultiGauge.Row.of(tags, f.pivotRatio()));
          if (f.calibratedAt() != null) {
            calibrated.add(MultiGauge.Row.of(tags, f.calibratedAt().toEpochMilli() / 1000.0));
          }
        });
    classTarget.register(target, true);
    classCutoff.register(cutoff, true);
    classPivot.register(pivot, true);
    classCalibrated.register(calibrated, true);
  }

  /** API accepted → tenant served. */
  public void onboarded(String sloClass, String isolation, Duration latency) {
    Timer.builder("isolato.onboarding.latency")
        .description("From the API accepting a tenant to the tenant being served")
        .tags("class", sloClass, "isolation", isolation)
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(5))
        .maximumExpectedValue(Duration.ofMinutes(2))
        .register(registry)
        .record(latency);
  }

  /**
   * One pool through a reconcile pass: {@code applied} (its workflow ran) or {@code unchanged}
   * (skipped: the same desired objects as last applied, and every one still at the version seen
   * then).
   */
  public void poolApply(String sloClass, boolean applied) {
    Counter.builder("isolato.pool.applies")
        .description("Pools through a reconcile pass, by whether their workflow ran")
        .tags("class", sloClass, "result", applied ? "applied" : "unchanged")
        .register(registry)
        .increment();
  }

  public void tablePushFailures(String sloClass, int n) {
    Counter.builder("isolato.table.push.failures")
        .description("Pods that refused or missed a table push")
        .tags("class", sloClass)
        .register(registry)
        .increment(n);
  }

  /** Replaces the per-phase counts of one class (after the reconcile's status writes). */
  public void tenantPhases(String sloClass, Map<TenantPhase, Long> byPhase) {
    if (byPhase.isEmpty()) {
      tenantsByClass.remove(sloClass);
    } else {
      tenantsByClass.put(sloClass, Map.copyOf(byPhase));
    }
    List<MultiGauge.Row<?>> rows =
        tenantsByClass.entrySet().stream()
            .flatMap(
                c ->
                    c.getValue().entrySet().stream()
                        .map(
                            p ->
                                MultiGauge.Row.of(
                                    Tags.of("class", c.getKey(), "phase", p.getKey().name()),
                                    p.getValue())))
            .<MultiGauge.Row<?>>map(r -> r)
            .toList();
    tenants.register(rows, true);
  }
}
