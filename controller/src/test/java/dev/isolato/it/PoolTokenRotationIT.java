package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.isolato.DocClaim;
import dev.isolato.tenancy.PoolTokens;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * A pool admin token rotation on a real kube-apiserver. The pool's "pod" is an HTTP server in this
 * JVM behind a hand-made EndpointSlice (no kubelet here); like saas-bench it accepts the tokens of
 * its token file, and the test plays the kubelet by re-reading the pool Secret into it when the
 * test decides (the real kubelet takes up to a minute).
 */
class PoolTokenRotationIT extends ItBase {
  static final String CLS = "rot";
  static final String POOL = "isolato-c-" + CLS;
  static final Duration WAIT = Duration.ofSeconds(60);
  final AtomicReference<Set<String>> accepted = new AtomicReference<>(Set.of());
  final AtomicInteger refused = new AtomicInteger();
  HttpServer pod;

  @AfterEach
  void stopPod() {
    if (pod != null) {
      pod.stop(0);
    }
  }

  @Test
  @Order(200)
  @DocClaim("docs/operations.md: pushes use the new one and retry with the previous on 401")
  @DocClaim(
      "docs/operations.md: pushes fail with 401 until the kubelet has refreshed each pool's file.")
  @DocClaim(
      "docs/troubleshooting.md: message lists each pod that refused (`HTTP 401`: the pod does not know the pool's admin token")
  void aRotationListsBothTokensUntilThePodsAcceptTheNewOneAndStrandsNoTenant() throws Exception {
    classWithTenant(CLS, "rot-1");
    List<String> before = poolTokens();
    assertThat(before).hasSize(1);
    startPod(before);
    serving("rot-1", WAIT);

    // rotate: the documented trigger is this annotation on the master key Secret
    kube.secrets()
        .inNamespace(NS)
        .withName("isolato-pool-admin-key")
        .edit(
            s ->
                new SecretBuilder(s)
                    .editMetadata()
                    .addToAnnotations("isolato.dev/rotate", "now")
                    .endMetadata()
                    .build());
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              Secret master =
                  kube.secrets().inNamespace(NS).withName("isolato-pool-admin-key").get();
              assertThat(master.getMetadata().getAnnotations())
                  .doesNotContainKey("isolato.dev/rotate")
                  .containsKey("isolato.dev/rotated-at");
              String current = decode(master.getData().get("current")).strip();
              assertThat(poolTokens())
                  .containsExactly(PoolTokens.token(current, POOL), before.get(0));
            });
    // the pod still holds the old file: a new tenant is served through the fallback token
    assertThat(api("POST", "/api/v1/tenants", tenantJson("rot-2", CLS, 5, "shared")).status())
        .isEqualTo(201);
    serving("rot-2", WAIT);
    assertThat(refused.get())
        .as("pushes with the new token were refused, then retried")
        .isPositive();

    // the kubelet refreshes the mounted Secret: the pod now accepts both, the controller confirms
    accepted.set(Set.copyOf(poolTokens()));
    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(poolTokens()).hasSize(1).doesNotContain(before.get(0)));
    accepted.set(Set.copyOf(poolTokens()));
    assertThat(api("POST", "/api/v1/tenants", tenantJson("rot-3", CLS, 5, "shared")).status())
        .isEqualTo(201);
    serving("rot-3", WAIT);

    // a deleted master key: the controller makes a new one with no previous to fall back on, so
    // pushes fail with 401 (and TableSynced says so) until the pod reads its refreshed file
    List<String> beforeDeletion = poolTokens();
    kube.secrets().inNamespace(NS).withName("isolato-pool-admin-key").delete();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(poolTokens()).hasSize(1).doesNotContainAnyElementsOf(beforeDeletion));
    assertThat(api("POST", "/api/v1/tenants", tenantJson("rot-4", CLS, 5, "shared")).status())
        .isEqualTo(201);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              JsonNode t = api("GET", "/api/v1/tenants/rot-4", null).body();
              assertThat(t.at("/status/phase").asText()).isNotEqualTo("Serving");
              assertThat(condition(t, "TableSynced")).contains("HTTP 401");
            });
    accepted.set(Set.copyOf(poolTokens()));
    serving("rot-4", WAIT);
    for (String t : List.of("rot-1", "rot-2", "rot-3", "rot-4")) {
      assertThat(api("DELETE", "/api/v1/tenants/" + t, null).status()).isEqualTo(202);
    }
  }

  private static String condition(JsonNode tenant, String type) {
    for (JsonNode c : tenant.at("/status/conditions")) {
      if (type.equals(c.get("type").asText())) {
        return c.get("message").asText();
      }
    }
    return "";
  }

  private List<String> poolTokens() {
    Secret s = kube.secrets().inNamespace(POOL).withName("saas-bench-admin").get();
    return PoolTokens.parse(decode(s.getData().get("token")));
  }

  private static String decode(String b64) {
    return new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8);
  }

  /**
   * A pod that accepts the tokens of its file, reachable through the pool Service's EndpointSlice.
   */
  private void startPod(List<String> tokens) throws Exception {
    accepted.set(Set.copyOf(tokens));
    // an EndpointSlice may not point at loopback: listen on a non-loopback address of this host
    String ip = hostAddress();
    pod = HttpServer.create(new InetSocketAddress(ip, 0), 0);
    pod.createContext(
        "/v1/admin/tenants",
        ex -> {
          String auth = ex.getRequestHeaders().getFirst("Authorization");
          ex.getRequestBody().readAllBytes();
          boolean ok =
              auth != null
                  && auth.startsWith("Bearer ")
                  && accepted.get().contains(auth.substring(7));
          if (!ok) {
            refused.incrementAndGet();
          }
          byte[] body =
              (ok ? "{}" : "{\"title\":\"missing or wrong bearer token\"}")
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(ok ? 200 : 401, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    pod.start();
    poolEndpoint(POOL, "saas-bench-it", pod.getAddress(), null);
    markReady(POOL);
  }
}
