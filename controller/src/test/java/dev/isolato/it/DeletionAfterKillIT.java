package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.isolato.config.IsolatoProperties;
import dev.isolato.config.OperatorLifecycle;
import dev.isolato.slo.CapacityPlanner;
import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.TenancyMetrics;
import dev.isolato.tenancy.Tenant;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.http.HttpRequest;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Deletion finishes when the controller is killed half-way through it (issue 16, item 3), in each
 * order of DeletionIT. The shared context's controller steps down, a {@link KilledController} takes
 * the lease and dies at an exact request of the deletion; a new controller instance (the context's,
 * restarted: a new operator, reconcilers and caches) takes over once the dead one's lease expires,
 * and must finish: nothing stays Terminating, every finalizer is removed, and no pool namespace is
 * left that neither terminates nor belongs to the deleted class (which the garbage collector then
 * removes).
 */
class DeletionAfterKillIT extends ItBase {
  /** The dead instance's lease expires, then one reconcile. */
  static final Duration TAKEN_OVER = Duration.ofSeconds(40);

  static final Duration SERVED = Duration.ofSeconds(30);

  @Autowired OperatorLifecycle controller;
  @Autowired IsolatoProperties props;
  @Autowired CapacityPlanner planner;
  @Autowired TenancyMetrics metrics;

  @AfterEach
  void controllerRunsAgain() {
    if (!controller.isRunning()) {
      controller.start();
    }
  }

  @Test
  @Order(320)
  void classThenTenant_killedAfterTheDedicatedNamespaceWentAndBeforeTheTenantsFinalizer()
      throws Exception {
    onboard("kill-a", "kill-a1", "kill-a2");
    String uid = uid("kill-a");
    try (KilledController dying = takeOver(KilledController.writeTo("/tenants/kill-a2"))) {
      kube.resources(SloClass.class).withName("kill-a").delete();
      await().atMost(SERVED).until(() -> "DeletionWaitsForTenants".equals(readyReason("kill-a")));
      assertThat(api("DELETE", "/api/v1/tenants/kill-a1", null).status()).isEqualTo(202);
      await().atMost(DeletionIT.RELEASED).until(() -> tenant("kill-a1") == null);
      assertThat(api("DELETE", "/api/v1/tenants/kill-a2", null).status()).isEqualTo(202);
      await().atMost(DeletionIT.RELEASED).until(() -> dying.killedAt() != null);
      assertThat(dying.killedAt()).startsWith("PATCH ");
    }
    // what the dead instance left: the namespace is deleted, the tenant and class are not released
    assertThat(terminating(kube.namespaces().withName("isolato-t-kill-a2").get())).isTrue();
    assertHeld(tenant("kill-a2"));
    assertHeld(kube.resources(SloClass.class).withName("kill-a").get());

    controller.start();
    awaitFinished("kill-a", uid, "kill-a1", "kill-a2");
  }

  @Test
  @Order(321)
  void tenantThenClass_killedBeforeTheClassFinalizer() throws Exception {
    onboard("kill-b", null, "kill-b1");
    String uid = uid("kill-b");
    try (KilledController dying = takeOver(KilledController.writeTo("/sloclasses/kill-b"))) {
      kube.resources(Tenant.class).inNamespace(NS).withName("kill-b1").delete();
      await().atMost(SERVED).until(() -> tenant("kill-b1") == null);
      kube.resources(SloClass.class).withName("kill-b").delete();
      await().atMost(DeletionIT.RELEASED).until(() -> dying.killedAt() != null);
    }
    assertHeld(kube.resources(SloClass.class).withName("kill-b").get());
    assertThat(terminating(kube.namespaces().withName("isolato-t-kill-b1").get())).isTrue();

    controller.start();
    awaitFinished("kill-b", uid, "kill-b1");
  }

  @Test
  @Order(322)
  void namespaceDeletedByHand_killedAtTheFirstStepOfARelease_restDeletedWhileDown()
      throws Exception {
    onboard("kill-n", "kill-n1", "kill-n2");
    String uid = uid("kill-n");
    try (KilledController dying =
        takeOver(KilledController.writeTo("/namespaces/isolato-t-kill-n2"))) {
      kube.namespaces()
          .withName("isolato-c-kill-n")
          .delete(); // by hand; no namespace controller here
      kube.configMaps().inNamespace("isolato-c-kill-n").withName("tenant-table").delete();
      await().atMost(SERVED).until(() -> "ApplyFailed".equals(readyReason("kill-n")));
      assertThat(api("DELETE", "/api/v1/tenants/kill-n2", null).status()).isEqualTo(202);
      await().atMost(DeletionIT.RELEASED).until(() -> dying.killedAt() != null);
      assertThat(dying.killedAt()).startsWith("DELETE ");
    }
    // nothing of the release happened; the rest is deleted while no controller runs
    assertThat(terminating(kube.namespaces().withName("isolato-t-kill-n2").get())).isFalse();
    assertHeld(tenant("kill-n2"));
    kube.resources(Tenant.class).inNamespace(NS).withName("kill-n1").delete();
    kube.resources(SloClass.class).withName("kill-n").delete();

    controller.start();
    awaitFinished("kill-n", uid, "kill-n1", "kill-n2");
  }

  /**
   * A class allowing dedicated tenants, a shared tenant (unless null) and a dedicated one, served.
   */
  private void onboard(String cls, String shared, String dedicated) throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson(cls, 3, 50, true)).status())
        .isEqualTo(201);
    if (shared != null) {
      assertThat(api("POST", "/api/v1/tenants", tenantJson(shared, cls, 5, "shared")).status())
          .isEqualTo(201);
    }
    assertThat(api("POST", "/api/v1/tenants", tenantJson(dedicated, cls, 5, "dedicated")).status())
        .isEqualTo(201);
    await()
        .atMost(SERVED)
        .until(
            () ->
                kube.apps()
                            .deployments()
                            .inNamespace("isolato-t-" + dedicated)
                            .withName("saas-bench")
                            .get()
                        != null
                    && (shared == null
                        || kube.apps()
                                .deployments()
                                .inNamespace("isolato-c-" + cls)
                                .withName("saas-bench")
                                .get()
                            != null));
  }

  /** The context's controller steps down (handing the lease over); a doomed one takes it. */
  private KilledController takeOver(Predicate<HttpRequest> killPoint) {
    controller.stop();
    return new KilledController(killPoint, props, planner, metrics);
  }

  private void awaitFinished(String cls, String classUid, String... tenants) {
    await()
        .atMost(TAKEN_OVER)
        .untilAsserted(
            () -> {
              for (String t : tenants) {
                assertThat(tenant(t)).as("tenant %s", t).isNull();
              }
              assertThat(kube.resources(SloClass.class).withName(cls).get())
                  .as("class %s", cls)
                  .isNull();
            });
    for (Namespace ns :
        kube.namespaces().withLabel(PoolObjects.CLASS_LABEL, cls).list().getItems()) {
      boolean collected =
          ns.getMetadata().getOwnerReferences().stream()
              .map(OwnerReference::getUid)
              .anyMatch(classUid::equals);
      assertThat(terminating(ns) || collected)
          .as("namespace %s terminates or is the garbage collector's", ns.getMetadata().getName())
          .isTrue();
    }
  }

  private static Tenant tenant(String id) {
    return kube.resources(Tenant.class).inNamespace(NS).withName(id).get();
  }

  private static String uid(String cls) {
    return kube.resources(SloClass.class).withName(cls).get().getMetadata().getUid();
  }

  private static String readyReason(String cls) {
    SloClass c = kube.resources(SloClass.class).withName(cls).get();
    return c == null || c.getStatus() == null
        ? null
        : c.getStatus().conditions.stream()
            .filter(x -> "Ready".equals(x.getType()))
            .map(x -> x.getReason())
            .findFirst()
            .orElse(null);
  }

  private static boolean terminating(HasMetadata o) {
    return o == null || o.getMetadata().getDeletionTimestamp() != null;
  }

  /** Terminating, its finalizer still on. */
  private static void assertHeld(HasMetadata o) {
    assertThat(o).isNotNull();
    assertThat(o.getMetadata().getDeletionTimestamp()).isNotNull();
    assertThat(o.getMetadata().getFinalizers()).contains(Tenant.FINALIZER);
  }
}
