package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.isolato.DocClaim;
import dev.isolato.tenancy.SloPool;
import dev.isolato.tenancy.Tenant;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A tenant onboarded into a running pool is written {@code Serving} by the pool's pass as soon as
 * its table is on every ready pod, not after the pool's status, its watch event and a class pass;
 * the class pass that follows that status finds the same status and writes nothing. A new pool's
 * first tenant, whose spec the pool's status reported before any pod was ready, stays the class
 * pass's. On a real kube-apiserver, with a fake pod holding the table (no kubelet here).
 */
class EarlyServingIT extends ItBase {
  static final String CLS = "early";
  static final String POOL = "isolato-c-" + CLS;
  static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  @DocClaim(
      "docs/onboarding-profile.md: The pool reconciler writes the new tenants' `Serving` as soon as the push")
  void aNewTenantIsServingFromThePushAndTheClassPassDoesNotWriteItAgain() throws Exception {
    // every phase each tenant is written with, in order: once Serving, never back
    Map<String, List<String>> phases = new ConcurrentHashMap<>();
    var tenants = kube.resources(Tenant.class).inNamespace("isolato-system");
    // from a listed version: a watch without one needs a storage feature this API server has off
    Watch watch =
        tenants.watch(
            new ListOptionsBuilder()
                .withResourceVersion(tenants.list().getMetadata().getResourceVersion())
                .build(),
            recorder(phases));
    Deployment d = classWithTenant(CLS, "es-1");
    FakePod pod = null;
    try {
      await().atMost(WAIT).until(() -> reported(pool()));
      pod = FakePod.inPool(POOL, "es-pod", d, d.getSpec().getTemplate().getMetadata().getLabels());
      markReady(POOL);
      serving("es-1", WAIT);
      assertThat(servedEarly())
          .as("es-1's spec was reported before its pod was ready: the class pass wrote it")
          .isZero();

      assertThat(api("POST", "/api/v1/tenants", tenantJson("es-2", CLS, 5, "shared")).status())
          .isEqualTo(201);
      serving("es-2", WAIT);
      // counted just after the write a client may already have seen
      await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(
              () -> assertThat(servedEarly()).as("es-2 written by the pool's pass").isEqualTo(1));
      String written = tenantVersion("es-2");
      // the pool's status reports that table after the write; the class pass it brings computes
      // the same status for es-2 and leaves it as it is
      await()
          .atMost(WAIT)
          .until(
              () -> {
                SloPool p = pool();
                return reported(p)
                    && p.getSpec().tableVersion().equals(p.getStatus().tableVersion)
                    && p.getSpec().tenants.contains("es-2");
              });
      await()
          .during(Duration.ofSeconds(2))
          .atMost(Duration.ofSeconds(5))
          .until(() -> written.equals(tenantVersion("es-2")));
      for (String t : List.of("es-1", "es-2")) {
        List<String> seen = phases.getOrDefault(t, List.of());
        assertThat(seen.subList(Math.max(0, seen.indexOf("Serving")), seen.size()))
            .as(t + "'s phases once Serving (all: " + seen + ")")
            .containsOnly("Serving");
      }
    } finally {
      watch.close();
      if (pod != null) {
        pod.server.stop(0);
      }
      for (String t : List.of("es-1", "es-2")) {
        api("DELETE", "/api/v1/tenants/" + t, null);
      }
    }
  }

  private static SloPool pool() {
    return kube.resources(SloPool.class).withName(POOL).get();
  }

  /** Whether the pool's status reports its spec. */
  private static boolean reported(SloPool p) {
    return p != null
        && p.getStatus() != null
        && Objects.equals(p.getStatus().observedGeneration, p.getMetadata().getGeneration());
  }

  private static Watcher<Tenant> recorder(Map<String, List<String>> phases) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, Tenant t) {
        if (t.getStatus() != null && t.getMetadata().getName().startsWith("es-")) {
          phases
              .computeIfAbsent(t.getMetadata().getName(), k -> new CopyOnWriteArrayList<>())
              .add(t.getStatus().phase);
        }
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }

  private static String tenantVersion(String id) {
    return kube.resources(Tenant.class)
        .inNamespace("isolato-system")
        .withName(id)
        .get()
        .getMetadata()
        .getResourceVersion();
  }

  /** isolato_tenant_served_early_total of the class (0 before its first). */
  private double servedEarly() throws Exception {
    return callPort(managementPort, "GET", "/actuator/prometheus", null)
        .raw()
        .body()
        .lines()
        .filter(
            l ->
                l.startsWith("isolato_tenant_served_early_total{")
                    && l.contains("class=\"" + CLS + "\""))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }
}
