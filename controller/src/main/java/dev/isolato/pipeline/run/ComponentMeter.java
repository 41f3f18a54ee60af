package dev.isolato.pipeline.run;

import dev.isolato.pipeline.ComponentSteps;
import dev.isolato.pipeline.Stage.Component;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Scrapes the components' own {@code /metrics} around a run ({@link ComponentSteps}): the kubelets
 * through the API server's node proxy ({@link KubeletMeter}), and, on localkube, the API server
 * itself, the controller manager and the scheduler. Those two serve HTTPS on the node's loopback
 * (localkube's ports, kubeadm's too) and authorize {@code /metrics} by the caller's identity: the
 * API client's own TLS identity (the admin's, on localkube) is presented. On a shared cluster
 * Isolato neither reaches nor may read them, so only the kubelets are tried there.
 */
public final class ComponentMeter {

  static final String CONTROLLER_MANAGER_METRICS = "https://127.0.0.1:10257/metrics";
  static final String SCHEDULER_METRICS = "https://127.0.0.1:10259/metrics";
  private static final long SCRAPE_TIMEOUT_SECONDS = 10;

  private final KubernetesClient client;
  private final KubeletMeter kubelets;
  private final boolean controlPlane;

  private ComponentMeter(KubernetesClient client, KubeletMeter kubelets, boolean controlPlane) {
    this.client = client;
    this.kubelets = kubelets;
    this.controlPlane = controlPlane;
  }

  /**
   * A meter of the components' step timings.
   *
   * @param kubelets the nodes' meter ({@link KubeletMeter#unavailable} on fake nodes)
   * @param controlPlane the cluster is localkube: its control plane's metrics are read too
   */
  public static ComponentMeter of(
      KubernetesClient client, KubeletMeter kubelets, boolean controlPlane) {
    return new ComponentMeter(client, kubelets, controlPlane);
  }

  public KubeletMeter kubelets() {
    return kubelets;
  }

  /** Every component's exposition that answered; a component that did not is left out. */
  Map<Component, String> mark() {
    Map<Component, String> out = new EnumMap<>(Component.class);
    String k = kubelets.mark();
    if (!k.isEmpty()) {
      out.put(Component.KUBELET, k);
    }
    if (controlPlane) {
      put(out, Component.APISERVER, apiServer());
      put(out, Component.CONTROLLER_MANAGER, scrape(CONTROLLER_MANAGER_METRICS));
      put(out, Component.SCHEDULER, scrape(SCHEDULER_METRICS));
    }
    return out;
  }

  ComponentSteps since(Map<Component, String> before) {
    return ComponentSteps.between(before, mark());
  }

  /** What the kubelets held at {@code mark} ({@link KubeletMeter#workingPods}). */
  static long workingPods(Map<Component, String> mark) {
    return KubeletMeter.workingPods(mark.getOrDefault(Component.KUBELET, ""));
  }

  private static void put(Map<Component, String> out, Component c, String text) {
    if (text != null && !text.isEmpty()) {
      out.put(c, text);
    }
  }

  private String apiServer() {
    try {
      return client.raw("/metrics");
    } catch (KubernetesClientException e) {
      return null;
    }
  }

  private String scrape(String url) {
    var http = client.getHttpClient();
    CompletableFuture<HttpResponse<String>> sent =
        http.sendAsync(http.newHttpRequestBuilder().uri(url).build(), String.class);
    try {
      HttpResponse<String> r = sent.get(SCRAPE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      return r.code() == 200 ? r.body() : null;
    } catch (ExecutionException e) {
      return null;
    } catch (TimeoutException e) {
      sent.cancel(true);
      return null;
    } catch (InterruptedException e) {
      sent.cancel(true);
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
