package dev.isolato.tenancy;

import dev.isolato.metrics.LiveMultiGauge;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The controller's own meters (Prometheus names start with isolato_). */
public class TenancyMetrics {
  private final MeterRegistry registry;
  private final LiveMultiGauge tenants;
  private final Map<String, Map<TenantPhase, Long>> tenantsByClass = new ConcurrentHashMap<>();
  // What the Prometheus rules (helm/isolato/files/isolato-rules.yaml) compare measurements with.
  private final LiveMultiGauge classTarget;
  private final LiveMultiGauge classCutoff;
  private final LiveMultiGauge classPivot;
  private final LiveMultiGauge classCalibrated;
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
        new LiveMultiGauge("isolato.tenants", "Tenants per SLO class and phase", registry);
    this.classTarget =
        new LiveMultiGauge(
            "isolato.class.target.seconds",
            "Latency target of an SLO class at its percentile",
            registry);
    this.classCutoff =
        new LiveMultiGauge(
            "isolato.class.cutoff.rps",
            "Per-pod cut-off the planner uses: measured by the last calibration, else declared",
            registry);
    this.classPivot =
        new LiveMultiGauge(
            "isolato.class.pivot.ratio",
            "Autoscaler pivot of an SLO class (pivotPercent / 100)",
            registry);
    this.classCalibrated =
        new LiveMultiGauge(
            "isolato.class.calibrated.timestamp.seconds",
            "When the class's cut-off was last measured (absent: never)",
            registry);
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

  /** Serialised: a publication's rows are read from the facts as a whole. */
  private synchronized void publishClasses() {
    Map<Tags, Double> target = new HashMap<>();
    Map<Tags, Double> cutoff = new HashMap<>();
    Map<Tags, Double> pivot = new HashMap<>();
    Map<Tags, Double> calibrated = new HashMap<>();
    classes.forEach(
        (name, f) -> {
          Tags tags = Tags.of("class", name);
          String percentile =
              BigDecimal.valueOf(f.percentile()).stripTrailingZeros().toPlainString();
          target.put(tags.and("percentile", percentile), f.targetSeconds());
          cutoff.put(tags, f.cutoffRps());
          pivot.put(tags, f.pivotRatio());
          if (f.calibratedAt() != null) {
            calibrated.put(tags, f.calibratedAt().toEpochMilli() / 1000.0);
          }
        });
    classTarget.set(target);
    classCutoff.set(cutoff);
    classPivot.set(pivot);
    classCalibrated.set(calibrated);
  }

  /** {@code t} is served now: from the time the API accepted it, when the tenant says. */
  void onboarded(Tenant t, String sloClass, String isolation) {
    TenancyReconcile.acceptedAt(t)
        .ifPresent(a -> onboarded(sloClass, isolation, Duration.between(a, Instant.now())));
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

  /** A tenant written Serving right after its table's push, before its pool's status. */
  public void servedEarly(String sloClass) {
    Counter.builder("isolato.tenant.served.early")
        .description(
            "Tenants written Serving as soon as their table was on every ready pod, before the"
                + " pool's status write")
        .tags("class", sloClass)
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

  public void tableDrift(String sloClass, int pods) {
    Counter.builder("isolato.table.drift")
        .description("Ready pool pods found holding another table than the pool's (pushed again)")
        .tags("class", sloClass)
        .register(registry)
        .increment(pods);
  }

  public void foreignTablePodDeleted(String sloClass) {
    Counter.builder("isolato.pool.foreign.table.pods.deleted")
        .description("Pool pods deleted for holding a tenant table Isolato never pushed")
        .tags("class", sloClass)
        .register(registry)
        .increment();
  }

  /** Replaces the per-phase counts of one class (after the reconcile's status writes). */
  public synchronized void tenantPhases(String sloClass, Map<TenantPhase, Long> byPhase) {
    if (byPhase.isEmpty()) {
      tenantsByClass.remove(sloClass);
    } else {
      tenantsByClass.put(sloClass, Map.copyOf(byPhase));
    }
    Map<Tags, Double> rows = new HashMap<>();
    tenantsByClass.forEach(
        (cls, phases) ->
            phases.forEach(
                (phase, n) ->
                    rows.put(Tags.of("class", cls, "phase", phase.name()), n.doubleValue())));
    tenants.set(rows);
  }
}
