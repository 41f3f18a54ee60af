package dev.isolato.verification;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.capacity.ClassModel;
import dev.isolato.capacity.ClassVerdict;
import dev.isolato.capacity.LiveWindow;
import dev.isolato.capacity.PoolVerifier;
import dev.isolato.capacity.Verdict;
import dev.isolato.capacity.VerificationPolicy;
import dev.isolato.events.ObjectEvents;
import dev.isolato.metrics.LiveMultiGauge;
import dev.isolato.profiler.TenantRates;
import dev.isolato.tenancy.CalibrationStatusMapper;
import dev.isolato.tenancy.ClassPasses;
import dev.isolato.tenancy.ClassStatusApply;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Continuous verification (issue 34 items 2–3), run by the leader only: every interval it reads
 * each pool's live window from Prometheus, holds it against its class's model ({@link
 * PoolVerifier}), and writes the class's {@code status.capacity} (server-side apply, its own field
 * manager) when a verdict or the effective cut-off changed, else at most every {@code refresh}.
 * That write brings the class reconciler back: it re-plans with the effective cut-off (more
 * replicas, up to the maximum) and states {@code SloHeld} and {@code CapacityShort}. Changes are
 * also Events on the class and the gauges {@code isolato_class_slo_held} and {@code
 * isolato_class_effective_cutoff_rps}.
 */
public final class VerificationLoop {
  public static final String FIELD_MANAGER = "isolato-capacity";
  private static final Logger log = LoggerFactory.getLogger(VerificationLoop.class);

  private final KubernetesClient client;
  private final PoolWindows source;
  private final VerificationPolicy policy;
  private final Duration interval;
  private final Duration window;
  private final Duration refresh;
  private final Map<PoolWindows.Pool, PoolVerifier> verifiers = new ConcurrentHashMap<>();
  private final Map<String, Instant> written = new HashMap<>();
  private final LiveMultiGauge held;
  private final LiveMultiGauge effective;
  private final LiveMultiGauge liveGauge;
  private final ObjectMapper json =
      new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);
  private final ClassPasses passes;
  private String lastFailure;

  public VerificationLoop(
      KubernetesClient client,
      PoolWindows source,
      VerificationPolicy policy,
      Duration interval,
      Duration window,
      MeterRegistry registry) {
    this.client = client;
    this.source = source;
    this.policy = policy;
    this.interval = interval;
    this.window = window;
    this.refresh = Duration.ofSeconds(30);
    this.passes = new ClassPasses(client, "capacity-verification", this::pass);
    this.held =
        new LiveMultiGauge(
            "isolato.class.slo.held",
            "1 while live traffic holds the class's latency target (k of n windows), else 0",
            registry);
    this.effective =
        new LiveMultiGauge(
            "isolato.class.effective.cutoff.rps",
            "Per-pod cut-off in force: the calibrated one unless live evidence lowered it",
            registry);
    this.liveGauge =
        new LiveMultiGauge(
            "isolato.class.live.cutoff.rps",
            "Conservative per-pod cut-off estimated from live traffic",
            registry);
  }

  /** Starts verifying (on becoming the leader); idempotent. */
  public void start() {
    if (passes.start(interval)) {
      log.info(
          "capacity verification: every {} ms over {} s windows",
          interval.toMillis(),
          window.toSeconds());
    }
  }

  public void stop() {
    passes.stop();
  }

  /** One pass over {@code all} classes. */
  public void pass(List<SloClass> all, Instant now) {
    List<SloClass> live =
        all.stream()
            .filter(c -> c.getSpec() != null && c.getMetadata().getDeletionTimestamp() == null)
            .toList();
    Set<Double> percentiles =
        live.stream().map(c -> c.getSpec().latency.percentile).collect(Collectors.toSet());
    if (percentiles.isEmpty()) {
      return;
    }
    Map<PoolWindows.Pool, Map<Double, LiveWindow>> windows;
    try {
      windows = source.read(window, percentiles, now);
      if (lastFailure != null) {
        log.info("capacity verification: Prometheus answers again");
        lastFailure = null;
      }
    } catch (TenantRates.RatesUnavailable e) {
      if (!e.getMessage().equals(lastFailure)) {
        log.warn("capacity verification: {}; verdicts stay as they are", e.getMessage());
        lastFailure = e.getMessage();
      }
      return;
    }
    Set<String> names =
        live.stream().map(c -> c.getMetadata().getName()).collect(Collectors.toSet());
    verifiers.keySet().removeIf(p -> !names.contains(p.sloClass()) || !windows.containsKey(p));
    Map<Tags, Double> heldRows = new HashMap<>();
    Map<Tags, Double> effectiveRows = new HashMap<>();
    Map<Tags, Double> liveRows = new HashMap<>();
    for (SloClass cls : live) {
      String name = cls.getMetadata().getName();
      ClassModel model = model(cls);
      List<Verdict> verdicts = new ArrayList<>();
      windows.forEach(
          (pool, byPercentile) -> {
            if (pool.sloClass().equals(name)) {
              verdicts.add(
                  verifiers
                      .computeIfAbsent(pool, p -> resumed(cls, model))
                      .observe(byPercentile.get(model.percentile()), model));
            }
          });
      if (verdicts.isEmpty()) {
        continue;
      }
      ClassVerdict verdict =
          ClassVerdict.of(
              name, verdicts, model.calibratedPerPodRps(), calibratedContext(cls), policy);
      Tags tags = Tags.of("class", name);
      Verdict v = verdict.pool();
      effectiveRows.put(tags, v.effectivePerPodRps());
      if (v.last() != null) {
        heldRows.put(tags, v.sloHeld() ? 1.0 : 0.0);
      }
      if (v.live() != null) {
        liveRows.put(tags, v.live().perPodRps());
      }
      List<Verdict.Change> changes =
          verdicts.stream().flatMap(x -> x.changes().stream()).distinct().toList();
      Instant last = written.get(name);
      if (v.last() != null
          && (!changes.isEmpty() || last == null || !now.isBefore(last.plus(refresh)))) {
        try {
          write(cls, CapacityStatus.of(cls, model, verdict, now));
          written.put(name, now);
          for (Verdict.Change c : changes) {
            event(cls, c, v, model, now);
          }
        } catch (KubernetesClientException e) {
          log.warn(
              "capacity verification: class {}: HTTP {} {}", name, e.getCode(), e.getMessage());
        }
      }
    }
    written.keySet().retainAll(names);
    held.set(heldRows);
    effective.set(effectiveRows);
    liveGauge.set(liveRows);
  }

  /** A new pool verifier, resuming the live limit the class's status holds. */
  private PoolVerifier resumed(SloClass cls, ClassModel model) {
    var limit = CalibrationStatusMapper.liveLimit(cls);
    String since = cls.getStatus().capacity == null ? null : cls.getStatus().capacity.driftSince;
    return limit.isPresent()
        ? new PoolVerifier(policy, limit.getAsDouble(), instant(since), model)
        : new PoolVerifier(policy);
  }

  /** A status written by hand may hold anything: an unreadable time is no time. */
  private static Instant instant(String at) {
    try {
      return at == null ? null : Instant.parse(at);
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }

  static ClassModel model(SloClass cls) {
    SloClassStatus st = cls.getStatus();
    String id = st == null ? null : st.lastRunId + "@" + st.calibratedAt;
    return new ClassModel(
        cls.getSpec().latency.percentile,
        cls.getSpec().latency.targetMs,
        CalibrationStatusMapper.calibratedPerPodCutoff(cls),
        id + "/" + CalibrationStatusMapper.calibratedPerPodCutoff(cls),
        cls.getSpec().pivotPercent / 100.0);
  }

  /** The context label of the newest cut-off, {@code declared} when none was measured. */
  static String calibratedContext(SloClass cls) {
    SloClassStatus st = cls.getStatus();
    if (!CalibrationStatusMapper.perPodCutoffMeasured(cls)
        || st.cutoffs == null
        || st.cutoffs.isEmpty()) {
      return "declared";
    }
    String label = st.cutoffs.get(st.cutoffs.size() - 1).context;
    return label == null ? "calibrated" : label;
  }

  private void write(SloClass cls, SloClassStatus.Capacity capacity) {
    ClassStatusApply.apply(client, cls, FIELD_MANAGER, "capacity", json.valueToTree(capacity));
  }

  private void event(SloClass cls, Verdict.Change change, Verdict v, ClassModel m, Instant now) {
    CapacityEvents.Event e = CapacityEvents.of(change, v, m);
    ObjectEvents.record(client, cls, e.reason(), e.type(), e.message(), FIELD_MANAGER, now);
    log.info("class {}: {} {}", cls.getMetadata().getName(), e.reason(), e.message());
  }
}
