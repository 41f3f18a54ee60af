package dev.isolato.tenancy;

import dev.isolato.events.Periodic;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A leader-only loop over every SloClass: an informer's copy of the classes, handed to {@code pass}
 * every interval. A failed pass is logged and the schedule goes on.
 */
public final class ClassPasses {
  private static final Logger log = LoggerFactory.getLogger(ClassPasses.class);

  private final KubernetesClient client;
  private final String name;
  private final BiConsumer<List<SloClass>, Instant> pass;
  private SharedIndexInformer<SloClass> classes;
  private java.util.concurrent.ScheduledExecutorService executor;

  public ClassPasses(
      KubernetesClient client, String name, BiConsumer<List<SloClass>, Instant> pass) {
    this.client = client;
    this.name = name;
    this.pass = pass;
  }

  /** Starts the passes; false when they run already. */
  public synchronized boolean start(Duration interval) {
    if (executor != null) {
      return false;
    }
    classes = client.resources(SloClass.class).inform();
    executor = Periodic.every(interval, name, this::passSafely);
    return true;
  }

  public synchronized void stop() {
    if (executor != null) {
      executor.shutdownNow();
      classes.close();
      executor = null;
    }
  }

  /** The informer's copy of a class; null when unknown or not started. */
  public SloClass get(String className) {
    SharedIndexInformer<SloClass> c = classes;
    return c == null ? null : c.getStore().getByKey(className);
  }

  private void passSafely() {
    try {
      pass.accept(classes.getStore().list(), Instant.now().truncatedTo(ChronoUnit.MILLIS));
    } catch (RuntimeException e) {
      log.warn("{} pass failed: {}", name, e.toString());
    }
  }
}
