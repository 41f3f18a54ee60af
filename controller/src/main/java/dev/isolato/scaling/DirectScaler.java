package dev.isolato.scaling;

import dev.isolato.kube.LeanItemStore;
import dev.isolato.metrics.Exposition;
import dev.isolato.metrics.ServiceMetrics;
import dev.isolato.tenancy.ManagedPods;
import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.Workload;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The direct path, faster than any polling autoscaler: every {@code interval} it scrapes the
 * /metrics of every ready pool pod itself (no Prometheus, no HPA sync in between), computes each
 * pool's offered rate ({@link PoolRate}) and, when two readings in a row need more pods than the
 * pool has at the class's per-pod threshold, raises the Deployment's replicas ({@link FloorRaise}),
 * held as the autoscaler's minimum for {@code hold} ({@link DirectFloor}). Scaling down stays with
 * KEDA or the HPA. Pool pods admit the controller on their Service port (NetworkPolicy), which also
 * serves /metrics.
 */
public final class DirectScaler implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DirectScaler.class);
  static final String ANSWERED = ServiceMetrics.REQUESTS;
  static final String IN_FLIGHT = ServiceMetrics.IN_FLIGHT;

  private final KubernetesClient client;
  private final boolean enabled;
  private final Duration interval;
  private final Duration hold;
  private final int metricsPort;
  private final HttpClient http;
  private final MeterRegistry registry;
  private final Map<String, PoolRate> rates = new ConcurrentHashMap<>();
  private final Map<String, Double> lastRate = new ConcurrentHashMap<>();
  private SharedIndexInformer<Pod> pods;
  private SharedIndexInformer<Deployment> deployments;
  private SharedIndexInformer<SloClass> classes;
  private ScheduledExecutorService timer;

  public DirectScaler(
      KubernetesClient client,
      boolean enabled,
      Duration interval,
      Duration hold,
      MeterRegistry registry) {
    this(client, enabled, interval, hold, Workload.PORT, registry);
  }

  /** With the pods' metrics on {@code metricsPort} (tests: a local stand-in for the pods). */
  DirectScaler(
      KubernetesClient client,
      boolean enabled,
      Duration interval,
      Duration hold,
      int metricsPort,
      MeterRegistry registry) {
    this.metricsPort = metricsPort;
    this.hold = hold;
    this.client = client;
    this.enabled = enabled;
    this.interval = interval;
    this.registry = registry;
    this.http = HttpClient.newBuilder().connectTimeout(interval).build();
  }

  /** Starts scraping (the leader calls it); a no-op when disabled or started. */
  public synchronized void start() {
    if (!enabled || timer != null) {
      return;
    }
    pods =
        LeanItemStore.inform(
            ManagedPods.of(client).withLabel("app.kubernetes.io/name", Workload.NAME));
    deployments =
        LeanItemStore.inform(
            client
                .apps()
                .deployments()
                .inAnyNamespace()
                .withLabel(PoolObjects.MANAGED_BY, PoolObjects.MANAGER));
    classes = LeanItemStore.inform(client.resources(SloClass.class));
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "isolato-direct-scaler");
              t.setDaemon(true);
              return t;
            });
    // tickSafely logs each failed tick, so the periodic future never holds an exception
    ScheduledFuture<?> unused =
        timer.scheduleWithFixedDelay(
            this::tickSafely, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    log.info("direct scaling path: scraping pool pods every {} ms", interval.toMillis());
  }

  @Override
  public synchronized void close() {
    if (timer != null) {
      timer.shutdownNow();
      pods.close();
      deployments.close();
      classes.close();
      timer = null;
    }
  }

  /** The last rate measured for a pool namespace (req/s), NaN when unknown. */
  public double rate(String namespace) {
    return lastRate.getOrDefault(namespace, Double.NaN);
  }

  private void tickSafely() {
    try {
      tick();
    } catch (RuntimeException e) {
      log.warn("direct scaling path: {}", e.toString());
    }
  }

  void tick() {
    Map<String, SloClass> byName =
        classes.getStore().list().stream()
            .collect(Collectors.toMap(c -> c.getMetadata().getName(), c -> c, (a, b) -> a));
    Map<String, List<Pod>> byPool =
        pods.getStore().list().stream()
            .filter(DirectScaler::ready)
            .collect(Collectors.groupingBy(p -> p.getMetadata().getNamespace()));
    rates.keySet().retainAll(byPool.keySet());
    lastRate.keySet().retainAll(byPool.keySet());
    for (Map.Entry<String, List<Pod>> pool : byPool.entrySet()) {
      String ns = pool.getKey();
      String cls = pool.getValue().get(0).getMetadata().getLabels().get(PoolObjects.CLASS_LABEL);
      SloClass c = cls == null ? null : byName.get(cls);
      Deployment d = deployments.getStore().getByKey(ns + "/" + Workload.NAME);
      if (c == null || d == null || d.getSpec().getReplicas() == null) {
        continue;
      }
      double rate = rates.computeIfAbsent(ns, k -> new PoolRate()).update(scrape(pool.getValue()));
      double confirmed = FloorRaise.confirmed(rate(ns), rate);
      lastRate.put(ns, rate);
      OptionalInt raise =
          FloorRaise.decide(
              confirmed,
              ScaleThreshold.perPodRps(c),
              d.getSpec().getReplicas(),
              c.getSpec().maxReplicas);
      if (raise.isPresent()) {
        raise(
            ns,
            cls,
            d.getSpec().getReplicas(),
            raise.getAsInt(),
            confirmed,
            ScaleThreshold.perPodRps(c));
      }
    }
  }

  private void raise(String ns, String cls, int from, int to, double rate, double perPod) {
    try {
      // the replicas and the floor that keeps the autoscaler from undoing them, in one write
      client
          .apps()
          .deployments()
          .inNamespace(ns)
          .withName(Workload.NAME)
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              Serialization.asJson(
                  Map.of(
                      "metadata",
                      Map.of("annotations", DirectFloor.of(to, Instant.now(), hold).annotations()),
                      "spec",
                      Map.of("replicas", to))));
      Counter.builder("isolato_direct_scale_ups_total")
          .description("Replica raises by the direct scaling path")
          .tag("class", cls)
          .register(registry)
          .increment();
      log.info(
          "direct path: pool {} offered {} req/s > {} pods × {} req/s: replicas {} -> {}",
          ns,
          String.format("%.1f", rate),
          from,
          String.format("%.1f", perPod),
          from,
          to);
    } catch (KubernetesClientException e) {
      log.warn(
          "direct path: scaling pool {} to {} failed: HTTP {} {}",
          ns,
          to,
          e.getCode(),
          e.getMessage());
    }
  }

  /** Every pod's counters, scraped concurrently; a pod that does not answer in time is left out. */
  private Map<String, PoolRate.Sample> scrape(List<Pod> pods) {
    Map<String, CompletableFuture<HttpResponse<String>>> calls = new HashMap<>();
    for (Pod p : pods) {
      HttpRequest req =
          HttpRequest.newBuilder(
                  URI.create("http://" + p.getStatus().getPodIP() + ":" + metricsPort + "/metrics"))
              .timeout(interval)
              .GET()
              .build();
      calls.put(
          p.getMetadata().getName(), http.sendAsync(req, HttpResponse.BodyHandlers.ofString()));
    }
    Map<String, PoolRate.Sample> round = new HashMap<>();
    calls.forEach(
        (pod, call) -> {
          try {
            HttpResponse<String> r = call.get(interval.toMillis(), TimeUnit.MILLISECONDS);
            if (r.statusCode() == 200) {
              round.put(
                  pod,
                  new PoolRate.Sample(
                      Exposition.sum(r.body(), ANSWERED),
                      Exposition.sum(r.body(), IN_FLIGHT),
                      System.nanoTime()));
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (Exception e) {
            // unreachable or slow: left out of this round
          }
        });
    return round;
  }

  static boolean ready(Pod p) {
    return p.getStatus() != null
        && p.getStatus().getPodIP() != null
        && p.getMetadata().getDeletionTimestamp() == null
        && p.getStatus().getConditions() != null
        && p.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
