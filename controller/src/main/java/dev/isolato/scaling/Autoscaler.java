package dev.isolato.scaling;

import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.SloClass;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which autoscaler a pool gets: a KEDA ScaledObject on the measured cut-off when KEDA's API is
 * served (mode {@code auto}) or demanded ({@code keda}), else the CPU HPA (the fallback, also mode
 * {@code hpa}). Presence is looked up through API discovery, at most every {@link #RECHECK}. When a
 * pool moves to KEDA, Isolato's own HPA of that pool is deleted (two HPAs on one Deployment would
 * fight); only one Isolato labelled and owned.
 */
public final class Autoscaler {
  private static final Logger log = LoggerFactory.getLogger(Autoscaler.class);
  static final Duration RECHECK = Duration.ofSeconds(30);

  public enum Mode {
    auto,
    keda,
    hpa
  }

  private final KubernetesClient client;
  private final Mode mode;
  private final KedaSettings keda;
  private final Clock clock;
  private volatile Instant checkedAt = Instant.MIN;
  private volatile boolean kedaServed;

  /** Pool namespaces whose Isolato HPA is known to be gone. */
  private final Set<String> hpaRetired = ConcurrentHashMap.newKeySet();

  public Autoscaler(KubernetesClient client, Mode mode, KedaSettings keda) {
    this(client, mode, keda, Clock.systemUTC());
  }

  Autoscaler(KubernetesClient client, Mode mode, KedaSettings keda, Clock clock) {
    this.client = client;
    this.mode = mode;
    this.keda = keda;
    this.clock = clock;
  }

  /** The CPU HPA everywhere (no cluster lookups). */
  public static Autoscaler hpaOnly() {
    return new Autoscaler(null, Mode.hpa, null);
  }

  /** Whether pools get a ScaledObject now. */
  public boolean useKeda() {
    return switch (mode) {
      case hpa -> false;
      case keda -> true;
      case auto -> kedaServed();
    };
  }

  private boolean kedaServed() {
    Instant now = clock.instant();
    if (now.isAfter(checkedAt.plus(RECHECK))) {
      boolean served;
      try {
        served = client.supports(ScaledObjects.API_VERSION, ScaledObjects.KIND);
      } catch (KubernetesClientException e) {
        served = kedaServed; // keep the last answer through an API hiccup
      }
      if (served != kedaServed || checkedAt.equals(Instant.MIN)) {
        log.info(
            "KEDA's ScaledObject API is {}: pools get {}",
            served ? "served" : "not served",
            served ? "a ScaledObject on the measured cut-off" : "the CPU HorizontalPodAutoscaler");
      }
      kedaServed = served;
      checkedAt = now;
    }
    return kedaServed;
  }

  /**
   * The pool objects as they should be applied: {@code desired} unchanged with the HPA, or with the
   * HPA swapped for a ScaledObject (after deleting Isolato's HPA of the pool, once).
   */
  public List<HasMetadata> forPool(List<HasMetadata> desired, SloClass cls) {
    if (!useKeda()) {
      hpaRetired.clear();
      return desired;
    }
    desired.stream()
        .filter(HorizontalPodAutoscaler.class::isInstance)
        .findFirst()
        .ifPresent(h -> retireHpa(h.getMetadata().getNamespace(), h.getMetadata().getName(), cls));
    return ScaledObjects.replaceHpa(desired, cls, keda);
  }

  private void retireHpa(String namespace, String name, SloClass cls) {
    if (hpaRetired.contains(namespace)) {
      return;
    }
    HorizontalPodAutoscaler live =
        client
            .autoscaling()
            .v2()
            .horizontalPodAutoscalers()
            .inNamespace(namespace)
            .withName(name)
            .get();
    if (live != null && ours(live, cls)) {
      client.resource(live).delete();
      log.info("pool {}: deleted Isolato's CPU HPA, KEDA's ScaledObject replaces it", namespace);
    }
    hpaRetired.add(namespace);
  }

  static boolean ours(HasMetadata o, SloClass cls) {
    Map<String, String> labels = o.getMetadata().getLabels();
    return labels != null
        && PoolObjects.MANAGER.equals(labels.get(PoolObjects.MANAGED_BY))
        && o.getMetadata().getOwnerReferences() != null
        && o.getMetadata().getOwnerReferences().stream()
            .anyMatch(r -> r.getUid().equals(cls.getMetadata().getUid()));
  }

  /** Forgets what it knows of {@code namespace} (deleted pool). */
  public void forget(String namespace) {
    hpaRetired.remove(namespace);
  }
}
