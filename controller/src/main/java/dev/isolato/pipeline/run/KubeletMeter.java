package dev.isolato.pipeline.run;

import dev.isolato.pipeline.KubeletSteps;
import dev.isolato.pipeline.Step;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;

/**
 * The kubelets' own timings of S5 and S6's steps around a run ({@link KubeletSteps}): every node's
 * {@code /metrics}, read through the API server's node proxy (what {@code kubectl get --raw} does;
 * the admin's credentials reach it), before and after. Fake nodes (KWOK) have no kubelet: a
 * benchmark on them uses {@link #unavailable}.
 */
final class KubeletMeter {

  private final KubernetesClient client;

  private KubeletMeter(KubernetesClient client) {
    this.client = client;
  }

  static KubeletMeter of(KubernetesClient client) {
    return new KubeletMeter(client);
  }

  static KubeletMeter unavailable() {
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
  Map<Step, KubeletSteps.Measure> since(String before) {
    if (before.isEmpty()) {
      return Map.of();
    }
    String after = mark();
    return after.isEmpty() ? Map.of() : KubeletSteps.between(before, after);
  }
}
