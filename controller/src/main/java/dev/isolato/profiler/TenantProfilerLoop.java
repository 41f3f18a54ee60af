package dev.isolato.profiler;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.isolato.events.ObjectEvents;
import dev.isolato.events.Periodic;
import dev.isolato.kube.PagedList;
import dev.isolato.metrics.LiveMultiGauge;
import dev.isolato.slo.TenantProfiler;
import dev.isolato.tenancy.Tenant;
import dev.isolato.tenancy.TenantProfiles;
import dev.isolato.tenancy.TenantStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tenant profiler's Kubernetes side (issue 12 item 7), run by the leader only: every interval
 * it reads the tenants' offered rates, classifies each tenant with {@link TenantProfiler}, writes
 * {@code status.profile} when it changed (server-side apply, its own field manager, so the
 * reconciler's status writes and this one never remove each other's fields), records an Event on a
 * change of behaviour, and exports {@code isolato_tenant_profiles{class,behaviour}}. A status write
 * is a Tenant event, so the class reconciler plans again with the new profile.
 */
public final class TenantProfilerLoop {
  public static final String FIELD_MANAGER = "isolato-profiler";
  private static final Logger log = LoggerFactory.getLogger(TenantProfilerLoop.class);

  private final KubernetesClient client;
  private final TenantRates rates;
  private final TenantProfiler profiler;
  private final Duration window;
  private final Duration interval;
  private final String namespace;
  private final LiveMultiGauge profiles;
  private final Counter failures;
  private final ObjectMapper json = new ObjectMapper();
  private ScheduledExecutorService executor;
  private String lastFailure;

  public TenantProfilerLoop(
      KubernetesClient client,
      TenantRates rates,
      TenantProfiler.Policy policy,
      Duration interval,
      String namespace,
      MeterRegistry registry) {
    this.client = client;
    this.rates = rates;
    this.profiler = new TenantProfiler(policy);
    this.window = Duration.ofSeconds(policy.windowSeconds());
    this.interval = interval;
    this.namespace = namespace;
    this.profiles =
        new LiveMultiGauge(
            "isolato.tenant.profiles",
            "Tenants per SLO class and profiled behaviour (abiding, aggressive, passive, unknown)",
            registry);
    this.failures =
        Counter.builder("isolato.tenant.profiler.failures")
            .description("Profiling passes that could not read the tenants' rates")
            .register(registry);
  }

  /** Starts profiling (on becoming the leader); idempotent. */
  public synchronized void start() {
    if (executor != null) {
      return;
    }
    // passSafely logs each failed pass, so the schedule never stops
    executor = Periodic.every(interval, "tenant-profiler", this::passSafely);
    log.info(
        "tenant profiler: every {} s over a {} s window", interval.toSeconds(), window.toSeconds());
  }

  public synchronized void stop() {
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
  }

  private void passSafely() {
    try {
      pass(Instant.now().truncatedTo(ChronoUnit.MILLIS));
    } catch (RuntimeException e) {
      log.warn("tenant profiler pass failed: {}", e.toString());
    }
  }

  /** One pass: rates, profiles, the writes and events that changed, the gauge. */
  public void pass(Instant now) {
    TenantRates.Rates measured;
    try {
      measured = rates.offered(window);
      if (lastFailure != null) {
        log.info("tenant profiler: rates available again");
        lastFailure = null;
      }
    } catch (TenantRates.RatesUnavailable e) {
      failures.increment();
      if (!e.getMessage().equals(lastFailure)) {
        log.warn("tenant profiler: {}; profiles stay as they are", e.getMessage());
        lastFailure = e.getMessage();
      }
      return;
    }
    Map<String, Map<String, Long>> counts = new TreeMap<>();
    for (Tenant t :
        PagedList.all(
            o -> client.resources(Tenant.class).inNamespace(namespace).list(o), t -> true)) {
      if (t.getMetadata().getDeletionTimestamp() != null || t.getSpec() == null) {
        continue;
      }
      TenantProfiler.Profile p =
          TenantProfiles.classify(
              profiler, t, measured.of(t.getMetadata().getName(), t.getSpec().sloClass), now);
      TenantStatus.RateProfile prev = t.getStatus() == null ? null : t.getStatus().profile;
      TenantStatus.RateProfile next = TenantProfiles.toStatus(p, prev, window.toSeconds(), now);
      counts
          .computeIfAbsent(t.getSpec().sloClass, c -> new TreeMap<>())
          .merge(next.behaviour, 1L, Long::sum);
      try {
        if (TenantProfiles.worthWriting(prev, next)) {
          write(t, next);
        }
        TenantProfiles.event(prev, next).ifPresent(e -> record(t, e, now));
      } catch (KubernetesClientException e) {
        log.warn(
            "tenant profiler: tenant {}: HTTP {} {}",
            t.getMetadata().getName(),
            e.getCode(),
            e.getMessage());
      }
    }
    Map<Tags, Double> rows = new HashMap<>();
    counts.forEach(
        (cls, byBehaviour) ->
            byBehaviour.forEach(
                (b, n) -> rows.put(Tags.of("class", cls, "behaviour", b), n.doubleValue())));
    profiles.set(rows);
  }

  private void write(Tenant t, TenantStatus.RateProfile profile) {
    // only status.profile: an apply of a whole TenantStatus would take its conditions over
    ObjectNode patch = json.createObjectNode();
    patch.put("apiVersion", t.getApiVersion()).put("kind", t.getKind());
    patch
        .putObject("metadata")
        .put("name", t.getMetadata().getName())
        .put("namespace", t.getMetadata().getNamespace());
    patch.putObject("status").set("profile", json.valueToTree(profile));
    client
        .resources(Tenant.class)
        .inNamespace(t.getMetadata().getNamespace())
        .withName(t.getMetadata().getName())
        .subresource("status")
        .patch(
            new PatchContext.Builder()
                .withPatchType(PatchType.SERVER_SIDE_APPLY)
                .withFieldManager(FIELD_MANAGER)
                .withForce(true)
                .build(),
            patch.toString());
  }

  private void record(Tenant t, TenantProfiles.ProfileEvent e, Instant now) {
    ObjectEvents.record(client, t, e.reason(), e.type(), e.message(), FIELD_MANAGER, now);
  }
}
