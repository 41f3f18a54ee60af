package dev.isolato.tenancy;

import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
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
 * The fast path: sends a pool's tenant table straight to every ready pod of the pool (saas-bench's
 * admin endpoint, on the pod network: the addresses of the Service's EndpointSlices), so a new
 * tenant is served without waiting for the kubelet to refresh the mounted ConfigMap, which stays
 * the durable copy.
 *
 * <p>During a token rotation a pod may still hold the previous token file: a 401 to the first token
 * is retried with the next one, and the result says how many pods took the first.
 */
public class TablePusher {
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final KubernetesClient client;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  public TablePusher(KubernetesClient client) {
    this.client = client;
  }

  /**
   * How a push went: pods reached, those that accepted (with any token), those that accepted the
   * first token, and the errors of those that refused or failed.
   */
  public record Result(int readyPods, int accepted, int acceptedFirstToken, List<String> errors) {
    public boolean complete() {
      return readyPods > 0 && accepted == readyPods;
    }

    /** Every ready pod (at least one) accepted the first token. */
    public boolean firstTokenEverywhere() {
      return readyPods > 0 && acceptedFirstToken == readyPods;
    }
  }

  /** One pod's answer: the index of the token it accepted, or an error. */
  private record PodAnswer(int tokenIndex, String error) {}

  public Result push(String namespace, String tableJson, List<String> adminTokens) {
    List<String> endpoints = readyEndpoints(namespace);
    List<CompletableFuture<PodAnswer>> calls = new ArrayList<>();
    for (String endpoint : endpoints) {
      calls.add(send(endpoint, tableJson, adminTokens, 0));
    }
    List<PodAnswer> answers = calls.stream().map(CompletableFuture::join).toList();
    List<String> errors = answers.stream().map(PodAnswer::error).filter(e -> e != null).toList();
    int first = (int) answers.stream().filter(a -> a.tokenIndex() == 0).count();
    return new Result(endpoints.size(), endpoints.size() - errors.size(), first, errors);
  }

  private CompletableFuture<PodAnswer> send(
      String endpoint, String tableJson, List<String> tokens, int i) {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create("http://" + endpoint + Workload.ADMIN_TABLE_PATH))
            .timeout(TIMEOUT)
            .header("Authorization", "Bearer " + tokens.get(i))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(tableJson))
            .build();
    return http.sendAsync(req, HttpResponse.BodyHandlers.ofString())
        .thenCompose(
            r -> {
              if (r.statusCode() == 401 && i + 1 < tokens.size()) {
                return send(endpoint, tableJson, tokens, i + 1);
              }
              return CompletableFuture.completedFuture(
                  r.statusCode() / 100 == 2
                      ? new PodAnswer(i, null)
                      : new PodAnswer(
                          -1, endpoint + ": HTTP " + r.statusCode() + " " + abbreviate(r.body())));
            })
        .exceptionally(
            e ->
                new PodAnswer(
                    -1, endpoint + ": " + e.getClass().getSimpleName() + " " + e.getMessage()));
  }

  /** {@code address:port} of the ready endpoints of the pool's Service. */
  List<String> readyEndpoints(String namespace) {
    Set<String> endpoints = new LinkedHashSet<>();
    for (EndpointSlice s :
        client
            .discovery()
            .v1()
            .endpointSlices()
            .inNamespace(namespace)
            .withLabel("kubernetes.io/service-name", Workload.NAME)
            .list()
            .getItems()) {
      if (s.getEndpoints() == null) {
        continue;
      }
      int port = port(s);
      for (Endpoint e : s.getEndpoints()) {
        boolean ready =
            e.getConditions() == null || !Boolean.FALSE.equals(e.getConditions().getReady());
        if (ready && e.getAddresses() != null) {
          e.getAddresses()
              .forEach(ip -> endpoints.add((ip.contains(":") ? "[" + ip + "]" : ip) + ":" + port));
        }
      }
    }
    return List.copyOf(endpoints);
  }

  /** The slice's "http" port (the pods' container port), or the workload's port. */
  private static int port(EndpointSlice s) {
    if (s.getPorts() != null) {
      for (EndpointPort p : s.getPorts()) {
        if ("http".equals(p.getName()) && p.getPort() != null) {
          return p.getPort();
        }
      }
    }
    return Workload.PORT;
  }

  private static String abbreviate(String s) {
    return s == null ? "" : s.length() > 200 ? s.substring(0, 200) + "…" : s;
  }
}
