package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.isolato.DocClaim;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.Tenant;
import dev.isolato.tenancy.TenantSpec;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespace;
import java.time.Duration;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Deletion has one meaning whichever client deletes (issue 16, item 3): a class with tenants stays
 * Terminating, naming them, until they are offboarded; a tenant is released within seconds in every
 * order, also when its class is already gone. Nothing stays Terminating.
 */
class DeletionIT extends ItBase {
  /** "Within seconds": a release is one reconcile away. */
  static final Duration RELEASED = Duration.ofSeconds(10);

  @Test
  @Order(300)
  @DocClaim("docs/api.md: A Terminating class admits no new tenant (422).")
  @DocClaim("docs/api.md: class being deleted")
  void aClassDeletedPastTheApiWaitsForItsTenantsNamingThemThenGoes() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson("del-a", 3, 50, true)).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("del-a1", "del-a", 5, "shared")).status())
        .isEqualTo(201);
    assertThat(
            api("POST", "/api/v1/tenants", tenantJson("del-a2", "del-a", 5, "dedicated")).status())
        .isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                kube.namespaces().withName("isolato-t-del-a2").get() != null
                    && table("isolato-c-del-a").contains("del-a1"));

    kube.resources(SloClass.class).withName("del-a").delete(); // as kubectl would: no 409 guard
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              SloClass c = kube.resources(SloClass.class).withName("del-a").get();
              assertThat(c.getMetadata().getDeletionTimestamp()).isNotNull();
              Condition ready = readyCondition(c);
              assertThat(ready.getReason()).isEqualTo("DeletionWaitsForTenants");
              assertThat(ready.getMessage()).contains("2 tenants", "del-a1", "del-a2");
            });
    Reply refused = api("POST", "/api/v1/tenants", tenantJson("del-a3", "del-a", 5, "shared"));
    assertThat(refused.status()).isEqualTo(422);
    assertThat(refused.body().get("detail").asText()).contains("being deleted");

    // the class still serves the rest while each tenant leaves
    assertThat(api("DELETE", "/api/v1/tenants/del-a1", null).status()).isEqualTo(202);
    await()
        .atMost(RELEASED)
        .until(() -> kube.resources(Tenant.class).inNamespace(NS).withName("del-a1").get() == null);
    await().atMost(RELEASED).until(() -> !table("isolato-c-del-a").contains("del-a1"));
    await()
        .atMost(RELEASED)
        .untilAsserted(
            () ->
                assertThat(
                        readyCondition(kube.resources(SloClass.class).withName("del-a").get())
                            .getMessage())
                    .contains("1 tenant ", "del-a2"));

    assertThat(api("DELETE", "/api/v1/tenants/del-a2", null).status()).isEqualTo(202);
    await()
        .atMost(RELEASED)
        .until(() -> kube.resources(Tenant.class).inNamespace(NS).withName("del-a2").get() == null);
    await()
        .atMost(RELEASED)
        .until(() -> kube.resources(SloClass.class).withName("del-a").get() == null);
    Namespace dedicated = kube.namespaces().withName("isolato-t-del-a2").get();
    assertThat(dedicated == null || dedicated.getMetadata().getDeletionTimestamp() != null)
        .as("dedicated namespace deleted")
        .isTrue();
  }

  @Test
  @Order(301)
  void aTenantDeletedBeforeItsClassIsReleasedAndTheClassThenGoes() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson("del-b", 3, 50, false)).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("del-b1", "del-b", 5, "shared")).status())
        .isEqualTo(201);
    await().atMost(Duration.ofSeconds(30)).until(() -> table("isolato-c-del-b").contains("del-b1"));
    kube.resources(Tenant.class).inNamespace(NS).withName("del-b1").delete();
    await()
        .atMost(RELEASED)
        .until(() -> kube.resources(Tenant.class).inNamespace(NS).withName("del-b1").get() == null);
    kube.resources(SloClass.class).withName("del-b").delete();
    await()
        .atMost(RELEASED)
        .until(() -> kube.resources(SloClass.class).withName("del-b").get() == null);
  }

  @Test
  @Order(302)
  void aTenantWhoseClassIsAlreadyGoneIsReleasedWithinSeconds() {
    // e.g. the class was removed while the controller was down, or its finalizer was stripped
    kube.resource(PoolSecurityIT.tenant("orphan", "no-such-class", TenantSpec.Isolation.dedicated))
        .create();
    kube.resources(Tenant.class).inNamespace(NS).withName("orphan").delete();
    await()
        .atMost(RELEASED)
        .until(() -> kube.resources(Tenant.class).inNamespace(NS).withName("orphan").get() == null);
  }

  @Test
  @Order(303)
  void aPoolNamespaceDeletedByHandDoesNotHoldUpReleasesOrOtherPools() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson("del-n", 3, 50, true)).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("del-n1", "del-n", 5, "shared")).status())
        .isEqualTo(201);
    assertThat(
            api("POST", "/api/v1/tenants", tenantJson("del-n2", "del-n", 5, "dedicated")).status())
        .isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                table("isolato-c-del-n").contains("del-n1")
                    && kube.apps()
                            .deployments()
                            .inNamespace("isolato-t-del-n2")
                            .withName("saas-bench")
                            .get()
                        != null);

    // no namespace controller runs here, so the namespace stays Terminating; its content is
    // removed as the namespace controller would, and new content cannot be created in it
    kube.namespaces().withName("isolato-c-del-n").delete();
    kube.configMaps().inNamespace("isolato-c-del-n").withName("tenant-table").delete();
    assertThat(api("POST", "/api/v1/tenants", tenantJson("del-n3", "del-n", 5, "shared")).status())
        .isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              Condition ready =
                  readyCondition(kube.resources(SloClass.class).withName("del-n").get());
              assertThat(ready.getReason()).isEqualTo("ApplyFailed");
              assertThat(ready.getMessage()).contains("isolato-c-del-n");
            });
    // the dedicated pool and every release go on
    assertThat(api("DELETE", "/api/v1/tenants/del-n2", null).status()).isEqualTo(202);
    assertThat(api("DELETE", "/api/v1/tenants/del-n1", null).status()).isEqualTo(202);
    await()
        .atMost(RELEASED)
        .until(
            () ->
                kube.resources(Tenant.class).inNamespace(NS).withName("del-n2").get() == null
                    && kube.resources(Tenant.class).inNamespace(NS).withName("del-n1").get()
                        == null);
    Namespace dedicated = kube.namespaces().withName("isolato-t-del-n2").get();
    assertThat(dedicated == null || dedicated.getMetadata().getDeletionTimestamp() != null)
        .isTrue();

    assertThat(api("DELETE", "/api/v1/tenants/del-n3", null).status()).isEqualTo(202);
    await()
        .atMost(RELEASED)
        .until(() -> kube.resources(Tenant.class).inNamespace(NS).withName("del-n3").get() == null);
    kube.resources(SloClass.class).withName("del-n").delete();
    await()
        .atMost(RELEASED)
        .until(() -> kube.resources(SloClass.class).withName("del-n").get() == null);
  }

  private static String table(String ns) {
    var cm = kube.configMaps().inNamespace(ns).withName("tenant-table").get();
    return cm == null ? "" : cm.getData().get("tenants.json");
  }
}
