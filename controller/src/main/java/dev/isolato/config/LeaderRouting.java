package dev.isolato.config;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Marks the pod of the lease holder so that the chart's Service sends the REST API to the leader
 * only: admission is serialised per class inside one JVM (api/Admissions), so two replicas
 * answering POSTs could together overcommit a class. A replica clears the mark when it starts,
 * because a restarted container keeps its pod's labels. Without a pod name (a host process, `make
 * run`) there is nothing to mark.
 */
public final class LeaderRouting {
  /** The label the chart's Service selects on. */
  public static final String LABEL = "isolato.dev/api-leader";

  private static final Logger log = LoggerFactory.getLogger(LeaderRouting.class);

  private final KubernetesClient client;
  private final String namespace;
  private final String podName;

  public LeaderRouting(KubernetesClient client, String namespace, String podName) {
    this.client = client;
    this.namespace = namespace;
    this.podName = podName == null || podName.isBlank() ? null : podName;
  }

  /** At start, before competing for the lease: not (or no longer) the leader. */
  public void resign() {
    mark("null");
  }

  /** On becoming the leader: the Service's endpoints become this pod. */
  public void lead() {
    mark("\"true\"");
  }

  /**
   * A failure is logged, not thrown: without the mark the API is unreachable, reconciling goes on.
   */
  private void mark(String value) {
    if (podName == null) {
      return;
    }
    try {
      client
          .pods()
          .inNamespace(namespace)
          .withName(podName)
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"metadata\":{\"labels\":{\"" + LABEL + "\":" + value + "}}}");
      log.info("pod {}/{}: {} {}", namespace, podName, LABEL, value);
    } catch (KubernetesClientException e) {
      log.error(
          "could not set {}={} on pod {}/{} (RBAC: get and patch pods in {}?): the API Service {} this replica",
          LABEL,
          value,
          namespace,
          podName,
          namespace,
          "null".equals(value) ? "may still select" : "does not select",
          e);
    }
  }
}
