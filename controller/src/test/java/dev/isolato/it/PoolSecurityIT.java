package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.isolato.DocClaim;
import dev.isolato.tenancy.PoolNames;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassSpec;
import dev.isolato.tenancy.SloPool;
import dev.isolato.tenancy.Tenant;
import dev.isolato.tenancy.TenantSpec;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Classes and pools cannot touch what is not theirs (issue 9, items 3–5), on a real kube-apiserver:
 * reserved and colliding names, foreign namespaces, the image allowlist, and the isolation objects
 * of a pool (NetworkPolicies, Pod Security Admission "restricted"). No kube-controller-manager runs
 * here: namespaces are never garbage-collected, so "not deleted" is checked as "no ownerReference
 * and no deletion by the controller".
 */
class PoolSecurityIT extends ItBase {
  static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  @Order(100)
  void theClassNameSystemIsRefusedAndTheControllerNamespaceStaysUntouched() throws Exception {
    Reply r = api("POST", "/api/v1/slo-classes", classJson("system", 2, 50, true));
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body().at("/errors/0/field").asText()).isEqualTo("name");
    assertThat(r.body().get("detail").asText()).contains("reserved");

    // a client that bypasses the API (kubectl) gets a refusing reconciler
    kube.resource(sloClass("system", null)).create();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(ready("system"))
                    .satisfies(
                        c -> {
                          assertThat(c.getStatus()).isEqualTo("False");
                          assertThat(c.getReason()).isEqualTo("InvalidName");
                        }));
    assertThat(kube.namespaces().withName("isolato-c-system").get())
        .as("no pool for a refused class")
        .isNull();
    assertNoOwner(NS);
    kube.resources(SloClass.class).withName("system").delete();
    await()
        .atMost(WAIT)
        .until(() -> kube.resources(SloClass.class).withName("system").get() == null);
    Namespace controllerNs = kube.namespaces().withName(NS).get();
    assertThat(controllerNs.getMetadata().getDeletionTimestamp()).isNull();
    assertNoOwner(NS);
    assertThat(kube.secrets().inNamespace(NS).withName("isolato-pool-admin-key").get()).isNotNull();
  }

  @Test
  @Order(101)
  @DocClaim("docs/api.md: exists without Isolato's label → 409")
  @DocClaim("docs/operations.md: `app.kubernetes.io/managed-by=isolato` (409)")
  void aForeignNamespaceOfAPoolsNameIsNeitherAdoptedNorDeleted() throws Exception {
    foreignNamespace("isolato-c-squat");
    Reply r = api("POST", "/api/v1/slo-classes", classJson("squat", 2, 50, true));
    assertThat(r.status()).isEqualTo(409);
    assertThat(r.body().get("detail").asText())
        .contains("isolato-c-squat", "not created by Isolato");

    kube.resource(sloClass("squat", null)).create();
    Tenant t = tenant("squatted", "squat", TenantSpec.Isolation.shared);
    kube.resource(t).create();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(ready("squat").getReason()).isEqualTo("NamespaceConflict");
              assertThat(ready("squat").getMessage()).contains("isolato-c-squat", "not Isolato's");
              Tenant live = kube.resources(Tenant.class).inNamespace(NS).withName("squatted").get();
              assertThat(live.getStatus()).isNotNull();
              assertThat(live.getStatus().phase).isEqualTo("Pending");
              assertThat(live.getStatus().conditions.get(0).getReason())
                  .isEqualTo("NamespaceConflict");
            });
    assertNoOwner("isolato-c-squat");
    assertThat(kube.namespaces().withName("isolato-c-squat").get().getMetadata().getLabels())
        .doesNotContainKey("app.kubernetes.io/managed-by");
    assertThat(kube.secrets().inNamespace("isolato-c-squat").list().getItems())
        .as("nothing created inside")
        .isEmpty();
    assertThat(kube.configMaps().inNamespace("isolato-c-squat").list().getItems()).isEmpty();
    assertThat(kube.apps().deployments().inNamespace("isolato-c-squat").list().getItems())
        .isEmpty();
    assertThat(
            kube.network().v1().networkPolicies().inNamespace("isolato-c-squat").list().getItems())
        .isEmpty();

    kube.resources(Tenant.class).inNamespace(NS).withName("squatted").delete();
    kube.resources(SloClass.class).withName("squat").delete();
    await()
        .atMost(WAIT)
        .until(
            () ->
                kube.resources(SloClass.class).withName("squat").get() == null
                    && kube.resources(Tenant.class).inNamespace(NS).withName("squatted").get()
                        == null);
    assertThat(
            kube.namespaces()
                .withName("isolato-c-squat")
                .get()
                .getMetadata()
                .getDeletionTimestamp())
        .isNull();
  }

  @Test
  @Order(102)
  @DocClaim("docs/api.md: 409 when that namespace exists")
  @DocClaim("docs/api.md: a pool namespace exists that Isolato did not create")
  @DocClaim(
      "docs/operations.md: as is a class or dedicated tenant whose namespace already exists without")
  void aDedicatedTenantsForeignNamespaceIsNotDeletedWithTheTenant() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson("roomy", 2, 50, true)).status())
        .isEqualTo(201);
    foreignNamespace("isolato-t-lodger");
    Reply r = api("POST", "/api/v1/tenants", tenantJson("lodger", "roomy", 5, "dedicated"));
    assertThat(r.status()).isEqualTo(409);
    assertThat(r.body().get("field").asText()).isEqualTo("tenantId");

    kube.resource(tenant("lodger", "roomy", TenantSpec.Isolation.dedicated)).create();
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () ->
                assertThat(
                        kube.resources(Tenant.class)
                            .inNamespace(NS)
                            .withName("lodger")
                            .get()
                            .getStatus()
                            .conditions
                            .get(0)
                            .getReason())
                    .isEqualTo("NamespaceConflict"));
    kube.resources(Tenant.class).inNamespace(NS).withName("lodger").delete();
    await()
        .atMost(WAIT)
        .until(() -> kube.resources(Tenant.class).inNamespace(NS).withName("lodger").get() == null);
    Namespace ns = kube.namespaces().withName("isolato-t-lodger").get();
    assertThat(ns.getMetadata().getDeletionTimestamp())
        .as("the controller did not delete it")
        .isNull();
    assertNoOwner("isolato-t-lodger");
  }

  @Test
  @Order(103)
  void classABAndTheDedicatedTenantBOfClassAGetTwoNamespaces() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson("a-b", 2, 50, false)).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/slo-classes", classJson("a", 2, 50, true)).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("shared-ab", "a-b", 5, "shared")).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("b", "a", 5, "dedicated")).status())
        .isEqualTo(201);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(
                      kube.apps()
                          .deployments()
                          .inNamespace("isolato-c-a-b")
                          .withName("saas-bench")
                          .get())
                  .isNotNull();
              assertThat(
                      kube.apps()
                          .deployments()
                          .inNamespace("isolato-t-b")
                          .withName("saas-bench")
                          .get())
                  .isNotNull();
            });
    String uidAB = kube.resources(SloClass.class).withName("a-b").get().getMetadata().getUid();
    String uidA = kube.resources(SloClass.class).withName("a").get().getMetadata().getUid();
    assertThat(kube.namespaces().withName("isolato-c-a-b").get().getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(o -> assertThat(o.getUid()).isEqualTo(uidAB));
    assertThat(kube.namespaces().withName("isolato-t-b").get().getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(o -> assertThat(o.getUid()).isEqualTo(uidA));
    assertThat(ready("a-b").getStatus()).isEqualTo("True");
    assertThat(ready("a").getStatus()).isEqualTo("True");
  }

  @Test
  @Order(105)
  void aForgedPoolResourceIsRefusedNotBroughtAbout() {
    SloClass ab = kube.resources(SloClass.class).withName("a-b").get();
    SloPool live = kube.resources(SloPool.class).withName("isolato-c-a-b").get();
    // owned by a real class, but written by someone else: another image, a namespace of its own
    SloPool forged = new SloPool();
    forged.setMetadata(
        new ObjectMetaBuilder()
            .withName("isolato-t-forged")
            .addToLabels("app.kubernetes.io/managed-by", "isolato")
            .addNewOwnerReference()
            .withApiVersion(ab.getApiVersion())
            .withKind(ab.getKind())
            .withName("a-b")
            .withUid(ab.getMetadata().getUid())
            .endOwnerReference()
            .build());
    forged.setSpec(live.getSpec());
    forged.getSpec().dedicatedTenant = "forged";
    forged.getSpec().classSpec.image = "registry.example.com/not-allowed:1";
    kube.resource(forged).create();
    // the pool reconciler refuses it; the class reconciler, which planned no such pool, deletes it
    await()
        .atMost(WAIT)
        .until(
            () -> {
              SloPool p = kube.resources(SloPool.class).withName("isolato-t-forged").get();
              return p == null
                  || (p.getStatus() != null
                      && p.getStatus().conditions.stream()
                          .anyMatch(c -> c.getMessage().contains("not-allowed")));
            });
    // (no namespace controller here: a namespace it had created would still be listed)
    assertThat(kube.namespaces().withName("isolato-t-forged").get()).isNull();
    kube.resources(SloPool.class).withName("isolato-t-forged").delete();
  }

  @Test
  @Order(104)
  void aPoolNamespaceOfTheEarlierSchemeIsRemovedButAForeignOneIsNot() {
    SloClass ab = kube.resources(SloClass.class).withName("a-b").get();
    // what a version before isolato-c-<class> left behind: Isolato's label and the class's owner
    kube.resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName("isolato-a-b")
                .addToLabels("app.kubernetes.io/managed-by", "isolato")
                .addToLabels("isolato.dev/class", "a-b")
                .addNewOwnerReference()
                .withApiVersion(ab.getApiVersion())
                .withKind(ab.getKind())
                .withName("a-b")
                .withUid(ab.getMetadata().getUid())
                .endOwnerReference()
                .endMetadata()
                .build())
        .create();
    // (its Deployment is not needed: the namespace's creation alone brings the class to remove it)
    // a look-alike in a namespace that is not Isolato's
    foreignNamespace("isolato-look-alike");
    kube.resource(poolDeployment("isolato-look-alike")).create();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(
                        kube.namespaces()
                            .withName("isolato-a-b")
                            .get()
                            .getMetadata()
                            .getDeletionTimestamp())
                    .isNotNull());
    assertThat(
            kube.namespaces()
                .withName("isolato-look-alike")
                .get()
                .getMetadata()
                .getDeletionTimestamp())
        .isNull();
    assertThat(
            kube.namespaces().withName("isolato-c-a-b").get().getMetadata().getDeletionTimestamp())
        .isNull();
  }

  private static Deployment poolDeployment(String ns) {
    return new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder()
        .withNewMetadata()
        .withName("saas-bench")
        .withNamespace(ns)
        .addToLabels("app.kubernetes.io/managed-by", "isolato")
        .addToLabels("isolato.dev/class", "a-b")
        .endMetadata()
        .withNewSpec()
        .withNewSelector()
        .addToMatchLabels("app", "x")
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .addToLabels("app", "x")
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("c")
        .withImage("localhost/isolato/saas-bench:dev")
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  @Test
  @Order(105)
  void aLookAlikeInThePoolInformersOwnedByAnotherClassIsNeitherUpdatedNorDeleted() {
    // Isolato's label puts it in the pool informers' cache, where the dependents look their
    // objects up by name; its owner is another class (no GC runs here, so a made-up one stays)
    String name = PoolNames.priorityClass("lookalike");
    kube.resource(
            new PriorityClassBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("app.kubernetes.io/managed-by", "isolato")
                .addNewOwnerReference()
                .withApiVersion("isolato.dev/v1alpha1")
                .withKind("SloClass")
                .withName("someone-elses")
                .withUid("6f1c3c9e-0000-4000-8000-000000000105")
                .endOwnerReference()
                .endMetadata()
                .withValue(7)
                .build())
        .create();
    kube.resource(sloClass("lookalike", null)).create();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(ready("lookalike").getMessage())
                    .contains(name, "is not owned by SloClass lookalike"));
    PriorityClass kept = kube.scheduling().v1().priorityClasses().withName(name).get();
    assertThat(kept.getValue()).isEqualTo(7);
    assertThat(kept.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(r -> assertThat(r.getName()).isEqualTo("someone-elses"));

    kube.resources(SloClass.class).withName("lookalike").delete();
    await()
        .atMost(WAIT)
        .until(() -> kube.resources(SloClass.class).withName("lookalike").get() == null);
    assertThat(kube.scheduling().v1().priorityClasses().withName(name).get().getValue())
        .as("left as it was")
        .isEqualTo(7);
    kube.scheduling().v1().priorityClasses().withName(name).delete();
  }

  @Test
  @Order(110)
  @DocClaim("docs/api.md: allowlist → 400 naming it.")
  @DocClaim("docs/operations.md: the API answers 400 naming the allowlist")
  void anImageOutsideTheAllowlistIsRefusedByTheApiAndTheReconciler() throws Exception {
    String body =
        classJson("evil", 2, 50, false)
            .replace("\"admission\":", "\"image\":\"docker.io/evil/miner:1\",\"admission\":");
    Reply r = api("POST", "/api/v1/slo-classes", body);
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body().at("/errors/0/field").asText()).isEqualTo("spec.image");
    assertThat(r.body().get("detail").asText())
        .contains("allowlist", "localhost/isolato/saas-bench:dev");
    // an allowed class cannot be switched to another image either
    Reply put =
        api(
            "PUT",
            "/api/v1/slo-classes/a-b",
            classJson("a-b", 2, 50, false)
                .replace("\"admission\":", "\"image\":\"docker.io/evil/miner:1\",\"admission\":"));
    assertThat(put.status()).isEqualTo(400);

    kube.resource(sloClass("evil", "docker.io/evil/miner:1")).create();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(ready("evil").getReason()).isEqualTo("ImageNotAllowed");
              assertThat(ready("evil").getMessage())
                  .contains("docker.io/evil/miner:1", "allowlist");
            });
    assertThat(kube.namespaces().withName("isolato-c-evil").get()).as("nothing applied").isNull();
    kube.resources(SloClass.class).withName("evil").delete();
  }

  @Test
  @Order(120)
  void aPoolNamespaceHasDenyAllAndServiceOnlyPoliciesAndEnforcesRestricted() throws Exception {
    String ns = "isolato-c-a-b";
    Namespace namespace = kube.namespaces().withName(ns).get();
    assertThat(namespace.getMetadata().getLabels())
        .containsEntry("pod-security.kubernetes.io/enforce", "restricted")
        .containsEntry("pod-security.kubernetes.io/warn", "restricted")
        .containsEntry("pod-security.kubernetes.io/audit", "restricted");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(kube.network().v1().networkPolicies().inNamespace(ns).list().getItems())
                    .hasSize(2));
    NetworkPolicy deny =
        kube.network().v1().networkPolicies().inNamespace(ns).withName("isolato-deny-all").get();
    assertThat(deny.getSpec().getPodSelector().getMatchLabels()).isNullOrEmpty();
    assertThat(deny.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
    NetworkPolicy allow =
        kube.network()
            .v1()
            .networkPolicies()
            .inNamespace(ns)
            .withName("isolato-allow-service")
            .get();
    Deployment d = kube.apps().deployments().inNamespace(ns).withName("saas-bench").get();
    assertThat(allow.getSpec().getPodSelector().getMatchLabels())
        .isEqualTo(d.getSpec().getSelector().getMatchLabels());
    var rule = allow.getSpec().getIngress().get(0);
    assertThat(rule.getPorts())
        .singleElement()
        .satisfies(p -> assertThat(p.getPort().getIntVal()).isEqualTo(8080));
    assertThat(rule.getFrom())
        .anySatisfy(
            p ->
                assertThat(p.getNamespaceSelector().getMatchLabels())
                    .containsEntry("isolato.dev/ingress", "true"));
    assertThat(rule.getFrom())
        .anySatisfy(
            p ->
                assertThat(p.getNamespaceSelector().getMatchLabels())
                    .containsEntry("kubernetes.io/metadata.name", NS));

    // PSA is enforced at pod creation: the pool's own pod is admitted, a privileged one is not.
    // (No controller-manager: the quota's status and the default ServiceAccount are made here.)
    ResourceQuota q = kube.resourceQuotas().inNamespace(ns).withName("isolato-pool").get();
    var used = new java.util.HashMap<String, io.fabric8.kubernetes.api.model.Quantity>();
    q.getSpec()
        .getHard()
        .keySet()
        .forEach(k -> used.put(k, new io.fabric8.kubernetes.api.model.Quantity("0")));
    q.setStatus(
        new io.fabric8.kubernetes.api.model.ResourceQuotaStatusBuilder()
            .withHard(q.getSpec().getHard())
            .withUsed(used)
            .build());
    kube.resource(q).updateStatus();
    kube.resource(
            new ServiceAccountBuilder()
                .withNewMetadata()
                .withName("default")
                .withNamespace(ns)
                .endMetadata()
                .build())
        .create();
    Pod pool =
        new PodBuilder()
            .withMetadata(
                new ObjectMetaBuilder()
                    .withName("pool-pod")
                    .withNamespace(ns)
                    .withLabels(d.getSpec().getTemplate().getMetadata().getLabels())
                    .build())
            .withSpec(d.getSpec().getTemplate().getSpec())
            .build();
    Pod created = kube.resource(pool).dryRun().create();
    assertThat(created.getMetadata().getNamespace()).isEqualTo(ns);
    Pod privileged =
        new PodBuilder(pool)
            .editMetadata()
            .withName("root-pod")
            .endMetadata()
            .editSpec()
            .withSecurityContext(null)
            .editFirstContainer()
            .withSecurityContext(null)
            .endContainer()
            .endSpec()
            .build();
    assertThatThrownBy(() -> kube.resource(privileged).dryRun().create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("violates PodSecurity \"restricted");
  }

  private static Condition ready(String cls) {
    return readyCondition(kube.resources(SloClass.class).withName(cls).get());
  }

  private static void assertNoOwner(String namespace) {
    Namespace ns = kube.namespaces().withName(namespace).get();
    assertThat(ns.getMetadata().getOwnerReferences())
        .as("ownerReferences of " + namespace)
        .isNullOrEmpty();
  }

  private static void foreignNamespace(String name) {
    kube.resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("team", "someone-else")
                .endMetadata()
                .build())
        .create();
  }

  static SloClass sloClass(String name, String image) {
    SloClass c = new SloClass();
    c.setMetadata(new ObjectMetaBuilder().withName(name).build());
    SloClassSpec s = new SloClassSpec();
    s.latency.targetMs = 50;
    s.resources.cpu = "250m";
    s.resources.memory = "64Mi";
    s.maxReplicas = 2;
    s.perPodCutoffRps = 50;
    s.allowDedicated = true;
    s.image = image;
    c.setSpec(s);
    return c;
  }

  static Tenant tenant(String id, String cls, TenantSpec.Isolation isolation) {
    Tenant t = new Tenant();
    t.setMetadata(
        new ObjectMetaBuilder()
            .withName(id)
            .withNamespace(NS)
            .addToFinalizers(Tenant.FINALIZER)
            .build());
    TenantSpec s = new TenantSpec();
    s.sloClass = cls;
    s.committedRps = 5;
    s.isolation = isolation;
    t.setSpec(s);
    return t;
  }
}
