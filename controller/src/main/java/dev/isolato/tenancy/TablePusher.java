package dev.isolato.tenancy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
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
 *
 * <p>A pod answers 409 when it holds a table of a higher revision than the one pushed: the result
 * names those pods, so that the caller can tell a newer table of Isolato's from one it never pushed
 * ({@link #revisionInUse}).
 */
public class TablePusher {
  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The label Kubernetes' EndpointSlice controller puts on the slices it makes. */
  public static final String SLICE_MANAGED_BY = "endpointslice.kubernetes.io/managed-by";

  public static final String SLICE_CONTROLLER = "endpointslice-controller.k8s.io";

  /** The label naming the Service a slice is of. */
  static final String SERVICE_NAME = "kubernetes.io/service-name";

  /**
   * The slices the pushes read: the pool Service's, made by Kubernetes' EndpointSlice controller
   * (the admin token goes only where the cluster's own controller says the pool's pods are, not to
   * an address in a slice someone else wrote into the pool's namespace).
   */
  public static final String SLICE_SELECTOR =
      SERVICE_NAME + "=" + Workload.NAME + "," + SLICE_MANAGED_BY + "=" + SLICE_CONTROLLER;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  /** A ready endpoint of the pool's Service: {@code address:port}, and its pod's name if known. */
  public record Target(String address, String pod) {}

  /**
   * How a push went: pods reached, those that accepted (with any token), those that accepted the
   * first token, the errors of those that refused or failed, and those that refused because they
   * hold a table of a higher revision (HTTP 409).
   */
  public record Result(
      int readyPods,
      int accepted,
      int acceptedFirstToken,
      List<String> errors,
      List<Target> holdingHigherRevision) {
    public Result(int readyPods, int accepted, int acceptedFirstToken, List<String> errors) {
      this(readyPods, accepted, acceptedFirstToken, errors, List.of());
    }

    public boolean complete() {
      return readyPods > 0 && accepted == readyPods;
    }

    /** Every ready pod (at least one) accepted the first token. */
    public boolean firstTokenEverywhere() {
      return readyPods > 0 && acceptedFirstToken == readyPods;
    }
  }

  /** One pod's answer: the index of the token it accepted, or an error and the HTTP status. */
  private record PodAnswer(Target target, int tokenIndex, int status, String error) {}

  /** Pushes the table to {@code endpoints} (the pool's {@link #readyEndpoints}). */
  public Result push(List<Target> endpoints, String tableJson, List<String> adminTokens) {
    List<CompletableFuture<PodAnswer>> calls = new ArrayList<>();
    for (Target endpoint : endpoints) {
      calls.add(send(endpoint, tableJson, adminTokens, 0));
    }
    List<PodAnswer> answers = calls.stream().map(CompletableFuture::join).toList();
    List<String> errors = answers.stream().map(PodAnswer::error).filter(e -> e != null).toList();
    int first = (int) answers.stream().filter(a -> a.tokenIndex() == 0).count();
    List<Target> higher =
        answers.stream().filter(a -> a.status() == 409).map(PodAnswer::target).toList();
    return new Result(endpoints.size(), endpoints.size() - errors.size(), first, errors, higher);
  }

  private CompletableFuture<PodAnswer> send(
      Target target, String tableJson, List<String> tokens, int i) {
    HttpRequest req =
        admin(target, tokens.get(i))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(tableJson))
            .build();
    String endpoint = target.address();
    return http.sendAsync(req, HttpResponse.BodyHandlers.ofString())
        .thenCompose(
            r -> {
              if (r.statusCode() == 401 && i + 1 < tokens.size()) {
                return send(target, tableJson, tokens, i + 1);
              }
              return CompletableFuture.completedFuture(
                  r.statusCode() / 100 == 2
                      ? new PodAnswer(target, i, r.statusCode(), null)
                      : new PodAnswer(
                          target,
                          -1,
                          r.statusCode(),
                          endpoint + ": HTTP " + r.statusCode() + " " + abbreviate(r.body())));
            })
        .exceptionally(
            e ->
                new PodAnswer(
                    target,
                    -1,
                    0,
                    endpoint + ": " + e.getClass().getSimpleName() + " " + e.getMessage()));
  }

  /** The table a pod holds, as far as Isolato compares it: its version and revision. */
  private record Held(String version, OptionalLong revision) {}

  /**
   * The table a pod holds (its admin GET), trying each token; empty when the pod does not say
   * (refused, unreachable, not JSON).
   */
  private CompletableFuture<Optional<Held>> heldAsync(Target target, List<String> tokens, int i) {
    return http.sendAsync(
            admin(target, tokens.get(i)).GET().build(), HttpResponse.BodyHandlers.ofString())
        .thenCompose(
            r ->
                r.statusCode() == 401 && i + 1 < tokens.size()
                    ? heldAsync(target, tokens, i + 1)
                    : CompletableFuture.completedFuture(
                        r.statusCode() == 200 ? parseHeld(r.body()) : Optional.<Held>empty()))
        .exceptionally(e -> Optional.empty());
  }

  private static Optional<Held> parseHeld(String body) {
    try {
      JsonNode table = JSON.readTree(body);
      JsonNode revision = table.get("revision");
      return Optional.of(
          new Held(
              table.path("version").asText(""),
              revision != null && revision.canConvertToLong()
                  ? OptionalLong.of(revision.asLong())
                  : OptionalLong.empty()));
    } catch (java.io.IOException e) {
      return Optional.empty();
    }
  }

  /** The revision of the table a pod holds; empty when the pod does not say. */
  public OptionalLong revisionInUse(Target target, List<String> tokens) {
    return heldAsync(target, tokens, 0).join().map(Held::revision).orElse(OptionalLong.empty());
  }

  /**
   * The ready pods of a pool that hold a table of another version than {@code version} (or do not
   * say which), read at once.
   */
  public List<Target> holdingOther(List<Target> targets, String version, List<String> tokens) {
    List<CompletableFuture<Optional<Held>>> reads =
        targets.stream().map(t -> heldAsync(t, tokens, 0)).toList();
    List<Target> other = new ArrayList<>();
    for (int i = 0; i < targets.size(); i++) {
      if (!reads.get(i).join().map(h -> h.version().equals(version)).orElse(false)) {
        other.add(targets.get(i));
      }
    }
    return other;
  }

  private static HttpRequest.Builder admin(Target target, String token) {
    return HttpRequest.newBuilder(
            URI.create("http://" + target.address() + Workload.ADMIN_TABLE_PATH))
        .timeout(TIMEOUT)
        .header("Authorization", "Bearer " + token);
  }

  /**
   * The ready endpoints of the pool Service's slices that Kubernetes made (the watched copies the
   * pool reconciler holds, selected by {@link #SLICE_SELECTOR}; checked here again, so that a slice
   * of another writer never gets the admin token whatever selected it).
   */
  public static List<Target> readyEndpoints(Collection<EndpointSlice> slices) {
    Set<Target> endpoints = new LinkedHashSet<>();
    for (EndpointSlice s : slices) {
      Map<String, String> labels = s.getMetadata().getLabels();
      if (s.getEndpoints() == null
          || labels == null
          || !Workload.NAME.equals(labels.get(SERVICE_NAME))
          || !SLICE_CONTROLLER.equals(labels.get(SLICE_MANAGED_BY))) {
        continue;
      }
      int port = port(s);
      for (Endpoint e : s.getEndpoints()) {
        boolean ready =
            e.getConditions() == null || !Boolean.FALSE.equals(e.getConditions().getReady());
        String pod =
            e.getTargetRef() != null && "Pod".equals(e.getTargetRef().getKind())
                ? e.getTargetRef().getName()
                : null;
        if (ready && e.getAddresses() != null) {
          e.getAddresses()
              .forEach(
                  ip ->
                      endpoints.add(
                          new Target((ip.contains(":") ? "[" + ip + "]" : ip) + ":" + port, pod)));
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
