package dev.isolato.scaling;

import dev.isolato.tenancy.KedaSettings;
import dev.isolato.tenancy.PoolResources;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which autoscaler a pool gets: a KEDA ScaledObject on the measured cut-off when KEDA's API is
 * served (mode {@code auto}) or demanded ({@code keda}), else the CPU HPA (the fallback, also mode
 * {@code hpa}). Presence is looked up through API discovery, at most every {@link #RECHECK}. The
 * choice goes into each pool resource; when a pool moves to KEDA, the pool's workflow deletes
 * Isolato's own HPA of that pool (two HPAs on one Deployment would fight).
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

  /** How pools scale now: on a ScaledObject with KEDA's settings, or on the CPU HPA. */
  public PoolResources.Scaling choice() {
    return new PoolResources.Scaling(useKeda(), keda);
  }
}
