package dev.isolato.pipeline.run;

import dev.isolato.metrics.Exposition;
import dev.isolato.pipeline.KubeletSteps;
import dev.isolato.pipeline.Measure;
import dev.isolato.pipeline.Step;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Map;

/**
 * The kubelets' own timings of S5 and S6's steps around a run ({@link KubeletSteps}): every node's
 * {@code /metrics}, read through the API server's node proxy (what {@code kubectl get --raw} does;
 * the admin's credentials reach it), before and after. Fake nodes (KWOK) have no kubelet: a
 * benchmark on them uses {@link #unavailable}.
 */
public final class KubeletMeter {

  private final KubernetesClient client;

  private KubeletMeter(KubernetesClient client) {
    this.client = client;
  }

  public static KubeletMeter of(KubernetesClient client) {
    return new KubeletMeter(client);
  }

  public static KubeletMeter unavailable() {
    return new KubeletMeter(null);
  }

  /**
   * Every node's exposition, concatenated; empty when there is no kubelet or one did not answer.
   */
  String mark() {
    if (client == null) {
      return "";
    }
    StringBuilder all = new StringBuilder();
    try {
      for (Node n : client.nodes().list().getItems()) {
        String text = client.raw("/api/v1/nodes/" + n.getMetadata().getName() + "/proxy/metrics");
        if (text == null) {
          return "";
        }
        all.append(text).append('\n');
      }
    } catch (KubernetesClientException e) {
      return "";
    }
    return all.toString();
  }

  /** The steps since {@code before} (a {@link #mark}); empty when either scrape failed. */
  Map<Step, Measure> since(String before) {
    if (before.isEmpty()) {
      return Map.of();
    }
    String after = mark();
    return after.isEmpty() ? Map.of() : KubeletSteps.between(before, after);
  }

  private static final String WORKING = "kubelet_working_pods";

  /**
   * Pods the kubelets' pod workers hold in a {@link #mark}: starting, running or still being torn
   * down; -1 when not read.
   */
  static long workingPods(String mark) {
    return mark.isEmpty() ? -1 : Math.round(Exposition.sum(mark, WORKING));
  }

  /** Of those, the pods being torn down (lifecycle terminating or terminated); -1 when not read. */
  static long tearingDown(String mark) {
    if (mark.isEmpty()) {
      return -1;
    }
    return Math.round(
        Exposition.sum(mark, WORKING, Map.of("lifecycle", "terminating"))
            + Exposition.sum(mark, WORKING, Map.of("lifecycle", "terminated")));
  }

  /**
   * Waits until the kubelets have torn a run's pods down, not only the API server forgotten them:
   * their sandboxes stopped, their networks and mounts released. That takes the node another 5–10 s
   * after the namespace is gone (100 pause pods on 2 cores); a run started meanwhile shares the CPU
   * with it and was measured up to 46 % slower. Done when no pod worker is tearing a pod down, or
   * when they hold no more pods than {@code baseline} (a {@link #workingPods} read before the run),
   * so pods others start meanwhile do not hold it up. Returns at once when the kubelets cannot be
   * read.
   */
  public void awaitSettled(long baseline, Duration timeout) throws InterruptedException {
    if (baseline < 0) {
      return;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String now = mark();
      if (now.isEmpty() || tearingDown(now) == 0 || workingPods(now) <= baseline) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the kubelets were still tearing "
                + tearingDown(now)
                + " pods down "
                + timeout.toSeconds()
                + " s after the run was removed");
      }
      Thread.sleep(SETTLE_POLL.toMillis());
    }
  }

  private static final Duration SETTLE_POLL = Duration.ofMillis(250);
}
