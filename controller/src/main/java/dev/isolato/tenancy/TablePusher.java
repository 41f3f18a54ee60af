package dev.isolato.tenancy;

import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The fast path: sends a pool's tenant table straight to every ready pod of the pool
 * (saas-bench's admin endpoint), so a new tenant is served without waiting for the kubelet to
 * refresh the mounted ConfigMap, which stays the durable copy.
 */
public class TablePusher {
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final KubernetesClient client;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  public TablePusher(KubernetesClient client) {
    this.client = client;
  }

  /** How a push went: pods reached and the errors of those that refused or failed. */
  public record Result(int readyPods, int accepted, List<String> errors) {
    public boolean complete() {
      return readyPods > 0 && accepted == readyPods;
    }
  }

  public Result push(String namespace, String tableJson, String adminToken) {
    List<String> ips = readyPodIps(namespace);
    List<CompletableFuture<String>> calls = new ArrayList<>();
    for (String ip : ips) {
      String host = ip.contains(":") ? "[" + ip + "]" : ip;
      HttpRequest req = HttpRequest.newBuilder(URI.create("http://" + host + ":" + Workload.PORT + Workload.ADMIN_TABLE_PATH))
          .timeout(TIMEOUT)
          .header("Authorization", "Bearer " + adminToken)
          .header("Content-Type", "application/json")
          .PUT(HttpRequest.BodyPublishers.ofString(tableJson))
          .build();
      calls.add(http.sendAsync(req, HttpResponse.BodyHandlers.ofString())
          .thenApply(r -> r.statusCode() / 100 == 2 ? null : ip + ": HTTP " + r.statusCode() + " " + abbreviate(r.body()))
          .exceptionally(e -> ip + ": " + e.getClass().getSimpleName() + " " + e.getMessage()));
    }
    List<String> errors = calls.stream().map(CompletableFuture::join).filter(e -> e != null).toList();
    return new Result(ips.size(), ips.size() - errors.size(), errors);
  }

  /** Addresses of ready endpoints of the pool's Service. */
  List<String> readyPodIps(String namespace) {
    Set<String> ips = new LinkedHashSet<>();
    for (EndpointSlice s : client.discovery().v1().endpointSlices().inNamespace(namespace)
        .withLabel("kubernetes.io/service-name", Workload.NAME).list().getItems()) {
      if (s.getEndpoints() == null) {
        continue;
      }
      for (Endpoint e : s.getEndpoints()) {
        boolean ready = e.getConditions() == null || !Boolean.FALSE.equals(e.getConditions().getReady());
        if (ready && e.getAddresses() != null) {
          ips.addAll(e.getAddresses());
        }
      }
    }
    return List.copyOf(ips);
  }

  private static String abbreviate(String s) {
    return s == null ? "" : s.length() > 200 ? s.substring(0, 200) + "…" : s;
  }
}
