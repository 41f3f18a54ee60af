package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.DocClaim;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Whoever holds a pool's admin token can push a table of a huge revision; the pod would then refuse
 * every table of Isolato's. On a real kube-apiserver: the controller deletes such a pod of its own,
 * never a pod without its labels, and never one whose higher revision is the pool's. The "pods" are
 * HTTP servers in this JVM that keep a revision as saas-bench does (a lower one is refused with
 * 409), behind hand-made EndpointSlices naming Pod objects (no kubelet here).
 */
class ForeignTableIT extends ItBase {
  static final String CLS = "ftab";
  static final String POOL = "isolato-c-" + CLS;
  static final Duration WAIT = Duration.ofSeconds(60);
  static final long FORGED = 1L << 52;
  static final ObjectMapper JSON = new ObjectMapper();
  final List<FakePod> pods = new ArrayList<>();

  @AfterEach
  void stopPods() {
    pods.forEach(p -> p.server.stop(0));
  }

  @Test
  @Order(200)
  @DocClaim(
      "docs/security.md: holds a table Isolato never pushed, so the controller deletes that pod (only a pod with Isolato's labels in")
  @DocClaim(
      "docs/troubleshooting.md: `HTTP 409`: the pod holds a table of a higher revision, and when that revision is above the pool's generation the controller deletes the pod")
  void aPodHoldingARevisionIsolatoNeverPushedIsDeletedAndNoOtherPod() throws Exception {
    Deployment d = classWithTenant(CLS, "ft-1");
    FakePod own = pod(POOL, "own", d, d.getSpec().getTemplate().getMetadata().getLabels());
    FakePod foreign = pod(POOL, "not-isolatos", d, Map.of("app", "someone-elses"));
    markReady(POOL);
    serving("ft-1", WAIT);

    // someone with the pool's admin token pushes a table of a huge revision to both
    own.revision.set(FORGED);
    foreign.revision.set(FORGED);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("ft-2", CLS, 5, "shared")).status())
        .isEqualTo(201);
    await()
        .atMost(WAIT)
        .until(() -> kube.pods().inNamespace(POOL).withName(own.name).get() == null);
    // its replacement starts from the ConfigMap's table (here: the fake starts over, same address)
    own.revision.set(0);
    int seen = foreign.conflicts.get();
    await().atMost(WAIT).until(() -> foreign.conflicts.get() > seen + 1);
    assertThat(kube.pods().inNamespace(POOL).withName(foreign.name).get())
        .as("a pod without Isolato's labels is never deleted")
        .isNotNull();
    assertThat(tenantPhase("ft-2")).isNotEqualTo("Serving");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(
                        api("GET", "/api/v1/tenants/ft-2", null)
                            .body()
                            .at("/status/conditions")
                            .toString())
                    .as("TableSynced names the pod that refuses")
                    .contains("HTTP 409"));
    kube.discovery().v1().endpointSlices().inNamespace(POOL).withName(foreign.name).delete();
    serving("ft-2", WAIT);
    assertThat(own.revision.get()).isLessThan(FORGED);

    // a pod refusing while its revision is within the pool's generations is left alone
    FakePod behind = pod(POOL, "behind", d, d.getSpec().getTemplate().getMetadata().getLabels());
    long generation =
        kube.resources(dev.isolato.tenancy.SloPool.class)
            .withName(POOL)
            .get()
            .getMetadata()
            .getGeneration();
    behind.revision.set(generation);
    behind.refuseAll.set(true);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("ft-3", CLS, 5, "shared")).status())
        .isEqualTo(201);
    await().atMost(WAIT).until(behind::refusedReadAndPushedAgain);
    assertThat(kube.pods().inNamespace(POOL).withName(behind.name).get()).isNotNull();
    Reply prom = callPort(managementPort, "GET", "/actuator/prometheus", null);
    assertThat(prom.raw().body().lines())
        .as("one pod deleted, counted for its class")
        .anyMatch(
            l ->
                l.startsWith("isolato_pool_foreign_table_pods_deleted_total{")
                    && l.contains("class=\"ftab\"")
                    && l.endsWith("} 1.0"));
    for (String t : List.of("ft-1", "ft-2", "ft-3")) {
      assertThat(api("DELETE", "/api/v1/tenants/" + t, null).status()).isEqualTo(202);
    }
  }

  @Test
  @Order(300)
  @DocClaim(
      "docs/security.md: the controller reads each ready pod's table back (at most every `isolato.pools.table-check`")
  void aPodHoldingAnotherTableOfTheSameRevisionGetsThePoolsAgain() throws Exception {
    String cls = "fdrift";
    String pool = "isolato-c-" + cls;
    Deployment d = classWithTenant(cls, "fd-1");
    FakePod p = pod(pool, "drift", d, d.getSpec().getTemplate().getMetadata().getLabels());
    markReady(pool);
    serving("fd-1", WAIT);
    String served = p.version.get();
    assertThat(served).isNotEmpty();

    // someone with the admin token pushes a table of the same revision: the pod takes it
    p.version.set("forged");
    long puts = p.puts();
    untilWithPasses(pool, () -> p.puts() > puts && served.equals(p.version.get()));
    Reply prom = callPort(managementPort, "GET", "/actuator/prometheus", null);
    assertThat(prom.raw().body().lines())
        .anyMatch(
            l -> l.startsWith("isolato_table_drift_total{") && l.contains("class=\"fdrift\""));

    // a pod that holds the pool's table is read, not pushed to
    long repaired = p.puts();
    long reads = p.reads();
    // two checks: the first one's pass has ended
    untilWithPasses(pool, () -> p.reads() >= reads + 2);
    assertThat(p.puts()).isEqualTo(repaired);
    assertThat(api("DELETE", "/api/v1/tenants/fd-1", null).status()).isEqualTo(202);
  }

  @Test
  @Order(400)
  @DocClaim(
      "docs/security.md: only to the addresses in the EndpointSlices Kubernetes' own EndpointSlice controller made")
  void theAdminTokenGoesOnlyToSlicesKubernetesMadeNotToOnesWrittenIntoThePoolNamespace()
      throws Exception {
    String cls = "fslice";
    String pool = "isolato-c-" + cls;
    Deployment d = classWithTenant(cls, "fs-1");
    FakePod spy = new FakePod("spy");
    pods.add(spy);
    // a slice that looks like the pool Service's, written by someone else (no managed-by label,
    // or another writer's), naming an address that collects whatever is sent to it
    poolEndpoint(pool, "spy-unlabelled", spy.server.getAddress(), null, null);
    poolEndpoint(pool, "spy-mirrored", spy.server.getAddress(), null, "someone-else");
    pod(pool, "real", d, d.getSpec().getTemplate().getMetadata().getLabels());
    markReady(pool);
    serving("fs-1", WAIT);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("fs-2", cls, 5, "shared")).status())
        .isEqualTo(201);
    serving("fs-2", WAIT);
    assertThat(spy.calls).as("requests that reached the forged slices' address").isEmpty();
    for (String t : List.of("fs-1", "fs-2")) {
      assertThat(api("DELETE", "/api/v1/tenants/" + t, null).status()).isEqualTo(202);
    }
  }

  /** Waits for {@code done}, making a pool pass at each poll, as the periodic resync would. */
  private static void untilWithPasses(String pool, java.util.concurrent.Callable<Boolean> done) {
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              nudge(pool);
              return done.call();
            });
  }

  /** Changes the pool Deployment's status, which makes a pool pass. */
  private static void nudge(String pool) {
    kube.apps()
        .deployments()
        .inNamespace(pool)
        .withName("saas-bench")
        .editStatus(
            d -> {
              Long g = d.getStatus().getObservedGeneration();
              d.getStatus().setObservedGeneration(g == null ? 1 : g + 1);
              return d;
            });
  }

  private FakePod pod(String pool, String name, Deployment d, Map<String, String> labels)
      throws Exception {
    FakePod p = FakePod.inPool(pool, name, d, labels);
    pods.add(p);
    return p;
  }
}
