package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.calibration.CalibrationContext;
import dev.isolato.calibration.CalibrationRun;
import dev.isolato.incontext.CalibrationProperties;
import dev.isolato.incontext.InContextCalibrations;
import dev.isolato.slo.SloEngine;
import dev.isolato.slo.SyntheticRuns;
import dev.isolato.slo.UslModel;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.TablePusher;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The controller (REST API + reconciler) against a real kube-apiserver and etcd, with HTTP helpers.
 * Every IT class extends this one so that they share one Spring context (one operator holding the
 * leader lease) and one API server.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "logging.level.dev.isolato.config.ApiCallCounter=DEBUG")
@AutoConfigureObservability
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class ItBase {
  static final String TOKEN = "it-token-123";

  /** A static tenant token of tenant {@code sec-own} (SecurityIT). */
  static final String TENANT_TOKEN = "it-tenant-token-sec-own";

  /** Short, so that rotation tests see a changed token file or Secret quickly. */
  static final Duration TOKEN_TTL = Duration.ofSeconds(2);

  static final String NS = "isolato-system";

  /** {@code isolato.calibration.context-settle} of the shared controller. */
  static final Duration CONTEXT_SETTLE = Duration.ofSeconds(3);

  /** {@code isolato.pools.table-check} of the shared controller. */
  static final Duration TABLE_CHECK = Duration.ofSeconds(2);

  static final ObjectMapper JSON = new ObjectMapper();
  static Path tokenFile;
  static Path tenantTokenFile;
  static KubernetesClient kube;

  @LocalServerPort int port;
  @LocalManagementPort int managementPort;
  final HttpClient http = HttpClient.newHttpClient();

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) throws IOException {
    Path kc = RealApiServer.kubeconfig();
    tokenFile = Files.createTempFile("isolato-it-token", ".txt");
    Files.writeString(tokenFile, TOKEN + "\n");
    tenantTokenFile = Files.createTempFile("isolato-it-tenant-tokens", ".txt");
    Files.writeString(tenantTokenFile, TENANT_TOKEN + " sec-own\n");
    r.add("isolato.kubeconfig", kc::toString);
    r.add("isolato.api.token-file", tokenFile::toString);
    r.add("isolato.api.tenant-token-file", tenantTokenFile::toString);
    r.add("isolato.api.token-cache-ttl", TOKEN_TTL::toString);
    r.add("server.address", () -> "127.0.0.1");
    // a new context counts after this (30 s by default): short, so ContextIT sees a change soon
    r.add("isolato.calibration.context-settle", () -> CONTEXT_SETTLE.toString());
    // pool pods' tables are read back at most this often (4 min by default): ForeignTableIT
    r.add("isolato.pools.table-check", () -> TABLE_CHECK.toString());
    // the chart's order of lease timings, not the 10 s default: DeletionAfterKillIT waits for a
    // dead instance's lease to expire three times
    r.add("isolato.leader-election.lease-duration", () -> "3s");
    r.add("isolato.leader-election.renew-deadline", () -> "2s");
    r.add("isolato.leader-election.retry-period", () -> "500ms");
  }

  @BeforeAll
  static void verifierClient() {
    kube = RealApiServer.client();
  }

  @AfterAll
  static void close() {
    kube.close();
  }

  record Reply(int status, JsonNode body, HttpResponse<String> raw) {}

  Reply call(String method, String path, Object body, String... headers) throws Exception {
    return callPort(port, method, path, body, headers);
  }

  Reply callPort(int toPort, String method, String path, Object body, String... headers)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + toPort + path))
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "application/json");
    for (int i = 0; i + 1 < headers.length; i += 2) {
      b.setHeader(headers[i], headers[i + 1]); // replaces the default Content-Type
    }
    String text =
        body == null ? null : body instanceof String s ? s : JSON.writeValueAsString(body);
    b.method(
        method,
        text == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(text));
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    boolean isJson = r.headers().firstValue("Content-Type").orElse("").contains("json");
    JsonNode json =
        !isJson || r.body() == null || r.body().isBlank()
            ? JSON.nullNode()
            : JSON.readTree(r.body());
    return new Reply(r.statusCode(), json, r);
  }

  Reply api(String method, String path, Object body, String... headers) throws Exception {
    return as(TOKEN, method, path, body, headers);
  }

  /** A call with {@code token} as the bearer token. */
  Reply as(String token, String method, String path, Object body, String... headers)
      throws Exception {
    String[] all = new String[headers.length + 2];
    all[0] = "Authorization";
    all[1] = "Bearer " + token;
    System.arraycopy(headers, 0, all, 2, headers.length);
    return call(method, path, body, all);
  }

  static String classJson(String name, int maxReplicas, double cutoff, boolean dedicated) {
    return classJson(name, maxReplicas, cutoff, dedicated, "enforce");
  }

  static String classJson(
      String name, int maxReplicas, double cutoff, boolean dedicated, String admission) {
    return """
        {"name":"%s","spec":{"latency":{"percentile":95,"targetMs":50},
         "resources":{"cpu":"250m","memory":"64Mi"},"priority":1000,"minReplicas":1,"maxReplicas":%d,
         "pivotPercent":60,"perPodCutoffRps":%s,"allowDedicated":%s,"admission":"%s"}}"""
        .formatted(name, maxReplicas, cutoff, dedicated, admission);
  }

  static String tenantJson(String id, String cls, double rps, String isolation) {
    return """
        {"tenantId":"%s","sloClass":"%s","committedRps":%s,"profile":{"cpu":2,"memory":16,"io":0},"isolation":"%s"}"""
        .formatted(id, cls, rps, isolation);
  }

  /** The namespace of {@code cls}'s shared pool. */
  static String pool(String cls) {
    return "isolato-c-" + cls;
  }

  /** The Deployment of {@code cls}'s shared pool; null until the reconciler made it. */
  static Deployment deployment(String cls) {
    return kube.apps().deployments().inNamespace(pool(cls)).withName("saas-bench").get();
  }

  /**
   * The Ready condition of class {@code c}. Absent is an assertion error, not an exception:
   * awaitility retries assertion errors only, and a class just created has no status yet.
   */
  static Condition readyCondition(SloClass c) {
    assertThat(c).as("the class").isNotNull();
    assertThat(c.getStatus()).as("status of class " + c.getMetadata().getName()).isNotNull();
    Optional<Condition> ready =
        c.getStatus().conditions.stream().filter(x -> "Ready".equals(x.getType())).findFirst();
    assertThat(ready).as("Ready condition of class " + c.getMetadata().getName()).isPresent();
    return ready.get();
  }

  /** A tenant's phase as the API shows it. */
  String tenantPhase(String tenant) throws Exception {
    return api("GET", "/api/v1/tenants/" + tenant, null).body().at("/status/phase").asText();
  }

  /** Waits until the tenant is Serving. */
  void serving(String tenant, Duration atMost) {
    await().atMost(atMost).until(() -> "Serving".equals(tenantPhase(tenant)));
  }

  /**
   * A class of {@code cls} with one shared tenant, once its pool's Deployment and admin Secret
   * exist (its pods are the test's to fake); returns the Deployment.
   */
  Deployment classWithTenant(String cls, String tenant) throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson(cls, 2, 50, false)).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson(tenant, cls, 5, "shared")).status())
        .isEqualTo(201);
    String pool = "isolato-c-" + cls;
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                kube.apps().deployments().inNamespace(pool).withName("saas-bench").get() != null
                    && kube.secrets().inNamespace(pool).withName("saas-bench-admin").get() != null);
    return kube.apps().deployments().inNamespace(pool).withName("saas-bench").get();
  }

  /**
   * A ready endpoint of a pool's Service ({@code saas-bench}) at {@code at}, in a slice of its own
   * named {@code name}, naming {@code pod} when given (no kubelet or EndpointSlice controller runs
   * here: the test plays them, labelling the slice as that controller does).
   */
  static void poolEndpoint(String poolNamespace, String name, InetSocketAddress at, Pod pod) {
    poolEndpoint(poolNamespace, name, at, pod, TablePusher.SLICE_CONTROLLER);
  }

  /** The same, as written by {@code managedBy} (null: no such label). */
  static void poolEndpoint(
      String poolNamespace, String name, InetSocketAddress at, Pod pod, String managedBy) {
    var endpoint =
        new EndpointBuilder()
            .withAddresses(at.getAddress().getHostAddress())
            .withNewConditions()
            .withReady(true)
            .endConditions();
    if (pod != null) {
      endpoint
          .withNewTargetRef()
          .withKind("Pod")
          .withName(pod.getMetadata().getName())
          .withNamespace(poolNamespace)
          .withUid(pod.getMetadata().getUid())
          .endTargetRef();
    }
    kube.resource(
            new EndpointSliceBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(poolNamespace)
                .addToLabels("kubernetes.io/service-name", "saas-bench")
                .addToLabels(
                    managedBy == null ? Map.of() : Map.of(TablePusher.SLICE_MANAGED_BY, managedBy))
                .endMetadata()
                .withAddressType("IPv4")
                .addToEndpoints(endpoint.build())
                .addNewPort()
                .withName("http")
                .withProtocol("TCP")
                .withPort(at.getPort())
                .endPort()
                .build())
        .create();
  }

  /** A non-loopback IPv4 address of this host: an EndpointSlice may not point at loopback. */
  static String hostAddress() throws Exception {
    return Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
        .filter(
            i -> {
              try {
                return i.isUp() && !i.isLoopback();
              } catch (SocketException e) {
                return false;
              }
            })
        .flatMap(i -> Collections.list(i.getInetAddresses()).stream())
        .filter(a -> a instanceof Inet4Address && !a.isLinkLocalAddress())
        .map(InetAddress::getHostAddress)
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException("no non-loopback IPv4 address to serve the fake pod on"));
  }

  /** The pool's Deployment has one ready pod (the controller-manager's part: none runs here). */
  static void markReady(String poolNamespace) {
    kube.apps()
        .deployments()
        .inNamespace(poolNamespace)
        .withName("saas-bench")
        .editStatus(
            d -> {
              d.setStatus(
                  new DeploymentStatusBuilder()
                      .withReplicas(1)
                      .withReadyReplicas(1)
                      .withAvailableReplicas(1)
                      .build());
              return d;
            });
  }

  /**
   * A single-pod calibration run of {@code cls} whose cut-off is near {@code perPodCutoff}.
   *
   * @param more the context's further fields (an in-context run names its node)
   */
  static String runJson(
      String runId,
      String cls,
      String label,
      String podCpu,
      Map<String, Object> more,
      double perPodCutoff)
      throws Exception {
    UslModel truth = SyntheticRuns.modelWithCutoff(10, 5, perPodCutoff, 0.7, 0.2);
    CalibrationRun r =
        SyntheticRuns.run(
            cls,
            truth,
            1,
            SyntheticRuns.rates(0.1 * perPodCutoff, 1.4 * perPodCutoff, 14),
            0.01,
            new Random(3));
    return JSON.writeValueAsString(
        new CalibrationRun(
            1,
            runId,
            cls,
            false,
            new CalibrationContext(label, podCpu, "64Mi", 1, List.of(), Map.of(), more),
            r.steps()));
  }

  /**
   * An in-context calibration loop of its own with automatic starts on (retry delay 15 min), for a
   * test to run passes of by hand; the leader's loop here has them off.
   */
  static InContextCalibrations autoCalibrations() {
    return new InContextCalibrations(
        kube,
        SloEngine.withDefaults(),
        new CalibrationProperties(null, null, true, null, Duration.ofMinutes(15), null, null),
        NS);
  }
}
