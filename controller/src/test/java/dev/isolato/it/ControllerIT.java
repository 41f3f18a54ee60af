package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.isolato.DocClaim;
import dev.isolato.config.ApiCallCounter;
import dev.isolato.tenancy.SloPool;
import dev.isolato.tenancy.Tenant;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Onboarding against a real kube-apiserver and etcd. No kube-controller-manager runs there, so no
 * pod ever starts: tenants stay Provisioning and the objects are checked as the reconciler wrote
 * them.
 */
class ControllerIT extends ItBase {
  @Autowired ApiCallCounter apiCalls;
  @Autowired MeterRegistry meters;

  @Test
  @org.junit.jupiter.api.Order(1)
  void crdsAreInstalledAndEstablished() {
    for (String name : new String[] {"tenants.isolato.dev", "sloclasses.isolato.dev"}) {
      var crd = kube.apiextensions().v1().customResourceDefinitions().withName(name).get();
      assertThat(crd).as(name).isNotNull();
      assertThat(crd.getStatus().getConditions())
          .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True"));
    }
    assertThat(
            kube.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName("sloclasses.isolato.dev")
                .get()
                .getSpec()
                .getScope())
        .isEqualTo("Cluster");
  }

  @Test
  @org.junit.jupiter.api.Order(2)
  @DocClaim("docs/api.md: else **401** (problem+json,")
  @DocClaim("docs/api.md: | 401 | no or invalid bearer token (`WWW-Authenticate: Bearer`) |")
  @DocClaim("docs/troubleshooting.md: 401: no token, or a token no source knows")
  void requestsWithoutAValidTokenGet401() throws Exception {
    Reply none = call("GET", "/api/v1/tenants", null);
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.raw().headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    assertThat(none.body().get("detail").asText()).contains("no bearer token");
    assertThat(call("GET", "/api/v1/tenants", null, "Authorization", "Bearer wrong").status())
        .isEqualTo(401);
  }

  @Test
  @org.junit.jupiter.api.Order(10)
  void onboardingCreatesTheTenantAndEveryPoolObject() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson("gold", 3, 100, true)).status())
        .isEqualTo(201);
    Reply created = api("POST", "/api/v1/tenants", tenantJson("acme", "gold", 30, "shared"));
    assertThat(created.status()).isEqualTo(201);
    assertThat(created.raw().headers().firstValue("ETag")).isPresent();
    Tenant cr = kube.resources(Tenant.class).inNamespace(NS).withName("acme").get();
    assertThat(cr.getSpec().committedRps).isEqualTo(30);
    assertThat(cr.getMetadata().getFinalizers()).contains(Tenant.FINALIZER);

    String ns = "isolato-c-gold";
    // the autoscaler is applied last; the tenant's row may come with the pool's next spec
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(
                      kube.autoscaling()
                          .v2()
                          .horizontalPodAutoscalers()
                          .inNamespace(ns)
                          .withName("saas-bench")
                          .get())
                  .isNotNull();
              ConfigMap cm = kube.configMaps().inNamespace(ns).withName("tenant-table").get();
              assertThat(cm).isNotNull();
              assertThat(JSON.readTree(cm.getData().get("tenants.json")).get("tenants").has("acme"))
                  .isTrue();
            });
    Namespace namespace = kube.namespaces().withName(ns).get();
    assertThat(namespace.getMetadata().getLabels())
        .containsEntry("isolato.dev/class", "gold")
        .containsEntry("app.kubernetes.io/managed-by", "isolato");
    assertThat(namespace.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(o -> assertThat(o.getKind()).isEqualTo("SloClass"));

    Deployment d = kube.apps().deployments().inNamespace(ns).withName("saas-bench").get();
    Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(c.getImage()).isEqualTo("localhost/isolato/saas-bench:dev");
    assertThat(c.getImagePullPolicy()).isEqualTo("IfNotPresent");
    assertThat(c.getResources().getRequests()).isEqualTo(c.getResources().getLimits());
    // the class's 250m pod: the app gets all but the gate sidecar's fixed 50m
    assertThat(c.getResources().getLimits().get("cpu")).isEqualTo(new Quantity("200m"));
    Container gate = d.getSpec().getTemplate().getSpec().getContainers().get(1);
    assertThat(gate.getName()).isEqualTo("isolato-gate");
    // the controller's isolato.pools.gate-image (default), carried in the pool resource
    assertThat(gate.getImage()).isEqualTo("localhost/isolato/gate:dev");
    assertThat(kube.resources(SloPool.class).withName(ns).get().getSpec().gateImage)
        .isEqualTo(gate.getImage());
    assertThat(gate.getResources().getLimits().get("cpu")).isEqualTo(new Quantity("50m"));
    assertThat(d.getSpec().getReplicas()).isEqualTo(1); // ⌈30 / 100⌉
    assertThat(d.getSpec().getTemplate().getSpec().getPriorityClassName())
        .isEqualTo("isolato-c-gold");
    assertThat(d.getMetadata().getManagedFields())
        .anyMatch(f -> "isolato".equals(f.getManager()) && "Apply".equals(f.getOperation()));

    PriorityClass pc = kube.scheduling().v1().priorityClasses().withName("isolato-c-gold").get();
    assertThat(pc.getValue()).isEqualTo(1000);
    ResourceQuota q = kube.resourceQuotas().inNamespace(ns).withName("isolato-pool").get();
    assertThat(q.getSpec().getHard().get("pods")).isEqualTo(new Quantity("4"));
    assertThat(Quantity.getAmountInBytes(q.getSpec().getHard().get("limits.cpu")))
        .isEqualByComparingTo("1");
    LimitRange lr = kube.limitRanges().inNamespace(ns).withName("isolato-pool").get();
    assertThat(lr.getSpec().getLimits().get(0).getMax().get("memory"))
        .isEqualTo(new Quantity("64Mi"));
    Service svc = kube.services().inNamespace(ns).withName("saas-bench").get();
    assertThat(svc.getSpec().getPorts().get(0).getPort()).isEqualTo(8080);
    assertThat(svc.getSpec().getSelector()).isEqualTo(d.getSpec().getSelector().getMatchLabels());
    HorizontalPodAutoscaler hpa =
        kube.autoscaling()
            .v2()
            .horizontalPodAutoscalers()
            .inNamespace(ns)
            .withName("saas-bench")
            .get();
    assertThat(hpa.getSpec().getMinReplicas()).isEqualTo(1);
    assertThat(hpa.getSpec().getMaxReplicas()).isEqualTo(3);
    assertThat(hpa.getSpec().getMetrics().get(0).getResource().getTarget().getAverageUtilization())
        .isEqualTo(60);
    JsonNode table =
        JSON.readTree(
            kube.configMaps()
                .inNamespace(ns)
                .withName("tenant-table")
                .get()
                .getData()
                .get("tenants.json"));
    assertThat(table.get("tenants").get("acme").get("rateRps").asDouble()).isEqualTo(30);
    assertThat(table.get("tenants").get("acme").get("profile").get("cpu").asInt()).isEqualTo(2);
    assertThat(kube.secrets().inNamespace(ns).withName("saas-bench-admin").get().getData())
        .containsKey("token");
  }

  @Test
  @org.junit.jupiter.api.Order(11)
  void statusSaysWhatIsPending() throws Exception {
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              JsonNode t = api("GET", "/api/v1/tenants/acme", null).body();
              assertThat(t.at("/status/phase").asText()).isEqualTo("Provisioning");
              assertThat(t.at("/status/observedGeneration").asLong()).isEqualTo(1);
              assertThat(t.at("/status/admittedRps").asDouble()).isEqualTo(30);
              assertThat(t.at("/status/namespace").asText()).isEqualTo("isolato-c-gold");
              JsonNode ready = find(t.at("/status/conditions"), "Ready");
              assertThat(ready.get("status").asText()).isEqualTo("False");
              assertThat(ready.get("reason").asText()).isEqualTo("NoReadyReplicas");
              assertThat(find(t.at("/status/conditions"), "Provisioned").get("status").asText())
                  .isEqualTo("True");
            });
    JsonNode cls = api("GET", "/api/v1/slo-classes/gold", null).body();
    assertThat(cls.at("/status/plan/replicas").asInt()).isEqualTo(1);
    assertThat(cls.at("/status/plan/method").asText())
        .as("no calibration yet")
        .isEqualTo("linear-fallback");
    assertThat(cls.at("/status/plan/explanation/0").asText())
        .startsWith("fallback to the linear baseline: no fitted model");
    assertThat(cls.at("/status/tenants").asInt()).isEqualTo(1);
  }

  @Test
  @org.junit.jupiter.api.Order(12)
  void aReconcileThatChangesNothingWritesNothing() {
    // An event that changes nothing Isolato decides on (an annotation on a tenant and on the
    // pool's Deployment) makes the class and the pool reconcile: both must be read-only.
    var classReconciles = reconciles("sloclass");
    var poolReconciles = reconciles("slopool");
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(700))
        .until(this::writesSettled);
    long classBefore = classReconciles.count();
    long poolBefore = poolReconciles.count();
    long writes = apiCalls.writes();
    kube.resources(Tenant.class)
        .inNamespace(NS)
        .withName("acme")
        .edit(
            t -> {
              t.getMetadata().getAnnotations().put("example.com/touched", "1");
              return t;
            });
    kube.apps()
        .deployments()
        .inNamespace("isolato-c-gold")
        .withName("saas-bench")
        .edit(
            d -> {
              d.getMetadata()
                  .setAnnotations(new java.util.HashMap<>(d.getMetadata().getAnnotations()));
              d.getMetadata().getAnnotations().put("example.com/touched", "1");
              return d;
            });
    // (the pool objects are compared with the informers' copies, not read)
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> classReconciles.count() > classBefore && poolReconciles.count() > poolBefore);
    assertThat(apiCalls.writes()).as("write calls during no-op reconciles").isEqualTo(writes);
  }

  private io.micrometer.core.instrument.Timer reconciles(String controller) {
    return meters
        .find("operator.sdk.controllers.execution.reconcile")
        .tag("controller", controller)
        .timer();
  }

  /** No controller write between two polls: what the previous tests started has settled. */
  private final java.util.concurrent.atomic.AtomicLong lastWrites =
      new java.util.concurrent.atomic.AtomicLong(-1);

  private boolean writesSettled() {
    long w = apiCalls.writes();
    return lastWrites.getAndSet(w) == w;
  }

  @Test
  @org.junit.jupiter.api.Order(13)
  void moreTenantsScaleThePlanAndTheTable() throws Exception {
    assertThat(api("POST", "/api/v1/tenants", tenantJson("beta", "gold", 150, "shared")).status())
        .isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(
                        kube.apps()
                            .deployments()
                            .inNamespace("isolato-c-gold")
                            .withName("saas-bench")
                            .get()
                            .getSpec()
                            .getReplicas())
                    .isEqualTo(2));
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              JsonNode table =
                  JSON.readTree(
                      kube.configMaps()
                          .inNamespace("isolato-c-gold")
                          .withName("tenant-table")
                          .get()
                          .getData()
                          .get("tenants.json"));
              assertThat(table.get("tenants").fieldNames())
                  .toIterable()
                  .containsExactly("acme", "beta");
              assertThat(
                      kube.autoscaling()
                          .v2()
                          .horizontalPodAutoscalers()
                          .inNamespace("isolato-c-gold")
                          .withName("saas-bench")
                          .get()
                          .getSpec()
                          .getMinReplicas())
                  .isEqualTo(2);
            });
  }

  @Test
  @org.junit.jupiter.api.Order(14)
  void admissionOffLiftsTheRateLimitsAndEnforceRestoresThem() throws Exception {
    assertThat(
            api("PUT", "/api/v1/slo-classes/gold", classJson("gold", 3, 100, true, "off")).status())
        .isEqualTo(200);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(goldTable().at("/tenants/acme").has("rateRps"))
                    .as("no limit with admission off")
                    .isFalse());
    assertThat(
            api("PUT", "/api/v1/slo-classes/gold", classJson("gold", 3, 100, true, "enforce"))
                .status())
        .isEqualTo(200);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> assertThat(goldTable().at("/tenants/acme/rateRps").asDouble()).isPositive());
  }

  private JsonNode goldTable() throws Exception {
    return JSON.readTree(
        kube.configMaps()
            .inNamespace("isolato-c-gold")
            .withName("tenant-table")
            .get()
            .getData()
            .get("tenants.json"));
  }

  @Test
  @org.junit.jupiter.api.Order(20)
  @DocClaim("docs/api.md: | 400 | invalid field values, wrong JSON types")
  @DocClaim("docs/api.md: | 409 | tenant exists with other settings")
  @DocClaim("docs/api.md: | 422 | unknown `sloClass`;")
  @DocClaim("docs/api.md: committed rate above what is left")
  void invalidInputGetsProblemsNamingTheField() throws Exception {
    Reply badId = api("POST", "/api/v1/tenants", tenantJson("Bad_Id", "gold", 1, "shared"));
    assertThat(badId.status()).isEqualTo(400);
    assertThat(badId.raw().headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    assertThat(badId.body().at("/errors/0/field").asText()).isEqualTo("tenantId");

    Reply badType =
        api(
            "POST",
            "/api/v1/tenants",
            "{\"tenantId\":\"x\",\"sloClass\":\"gold\",\"committedRps\":\"fast\"}");
    assertThat(badType.status()).isEqualTo(400);
    assertThat(badType.body().at("/errors/0/field").asText()).isEqualTo("committedRps");

    Reply badEnum =
        api("POST", "/api/v1/slo-classes", classJson("silver", 2, 50, false, "sometimes"));
    assertThat(badEnum.status()).isEqualTo(400);
    assertThat(badEnum.body().at("/errors/0/field").asText()).isEqualTo("spec.admission");
    assertThat(badEnum.body().get("detail").asText())
        .contains("must be one of enforce, off", "'sometimes'");

    Reply unknownClass =
        api("POST", "/api/v1/tenants", tenantJson("lost", "platinum", 1, "shared"));
    assertThat(unknownClass.status()).isEqualTo(422);
    assertThat(unknownClass.body().get("field").asText()).isEqualTo("sloClass");

    Reply duplicate = api("POST", "/api/v1/tenants", tenantJson("acme", "gold", 1, "shared"));
    assertThat(duplicate.status()).isEqualTo(409);

    // gold: 3 pods × 100 req/s = 300; acme 30 + beta 150 leave 120.
    Reply tooMuch = api("POST", "/api/v1/tenants", tenantJson("huge", "gold", 500, "shared"));
    assertThat(tooMuch.status()).isEqualTo(422);
    assertThat(tooMuch.body().get("remainingRps").asDouble()).isEqualTo(120);
    assertThat(tooMuch.body().get("detail").asText()).contains("120.0 more req/s");
    assertThat(kube.resources(Tenant.class).inNamespace(NS).withName("huge").get())
        .as("nothing written")
        .isNull();

    Reply badClass = api("POST", "/api/v1/slo-classes", classJson("Silver", 0, -1, false));
    assertThat(badClass.status()).isEqualTo(400);
    assertThat(badClass.body().get("errors").findValuesAsText("field"))
        .contains("name", "spec.maxReplicas", "spec.perPodCutoffRps");
  }

  @Test
  @org.junit.jupiter.api.Order(21)
  @DocClaim("docs/api.md: 200; 412 when the ETag is stale")
  @DocClaim("docs/api.md: | 412 | `If-Match` is not the current ETag |")
  void staleUpdatesGet412AndFreshOnesApply() throws Exception {
    Reply current = api("GET", "/api/v1/tenants/acme", null);
    String etag = current.raw().headers().firstValue("ETag").orElseThrow();
    Reply ok =
        api(
            "PUT",
            "/api/v1/tenants/acme",
            tenantJson("acme", "gold", 40, "shared"),
            "If-Match",
            etag);
    assertThat(ok.status()).isEqualTo(200);
    Reply stale =
        api(
            "PUT",
            "/api/v1/tenants/acme",
            tenantJson("acme", "gold", 50, "shared"),
            "If-Match",
            etag);
    assertThat(stale.status()).isEqualTo(412);
    assertThat(
            kube.resources(Tenant.class)
                .inNamespace(NS)
                .withName("acme")
                .get()
                .getSpec()
                .committedRps)
        .isEqualTo(40);
  }

  @Test
  @org.junit.jupiter.api.Order(22)
  void listsPageWithContinueTokens() throws Exception {
    Reply first = api("GET", "/api/v1/tenants?limit=1", null);
    assertThat(first.body().get("items")).hasSize(1);
    String token = first.body().get("continueToken").asText();
    Reply second =
        api(
            "GET",
            "/api/v1/tenants?limit=1&continue=" + java.net.URLEncoder.encode(token, "UTF-8"),
            null);
    assertThat(second.body().get("items")).hasSize(1);
    assertThat(second.body().at("/items/0/tenantId").asText())
        .isNotEqualTo(first.body().at("/items/0/tenantId").asText());
  }

  @Test
  @org.junit.jupiter.api.Order(30)
  @DocClaim("docs/api.md: a dedicated namespace is removed (finalizer `isolato.dev/cleanup`)")
  void dedicatedTenantsGetTheirOwnNamespaceWhichGoesWithThem() throws Exception {
    assertThat(api("POST", "/api/v1/tenants", tenantJson("vip", "gold", 50, "dedicated")).status())
        .isEqualTo(201);
    String ns = "isolato-t-vip";
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(
                        kube.autoscaling()
                            .v2()
                            .horizontalPodAutoscalers()
                            .inNamespace(ns)
                            .withName("saas-bench")
                            .get())
                    .isNotNull());
    assertThat(kube.namespaces().withName(ns).get().getMetadata().getLabels())
        .containsEntry("isolato.dev/tenant", "vip");
    JsonNode shared =
        JSON.readTree(
            kube.configMaps()
                .inNamespace("isolato-c-gold")
                .withName("tenant-table")
                .get()
                .getData()
                .get("tenants.json"));
    assertThat(shared.get("tenants").has("vip"))
        .as("a dedicated tenant is not in the shared table")
        .isFalse();

    assertThat(api("DELETE", "/api/v1/tenants/vip", null).status()).isEqualTo(202);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(kube.resources(Tenant.class).inNamespace(NS).withName("vip").get())
                  .isNull();
              Namespace gone = kube.namespaces().withName(ns).get();
              assertThat(gone == null || gone.getMetadata().getDeletionTimestamp() != null)
                  .as("namespace deleted")
                  .isTrue();
            });
  }

  @Test
  @org.junit.jupiter.api.Order(30)
  void aClassesDedicatedPoolsAppliedConcurrentlyEachGetOnlyTheirOwnObjects() throws Exception {
    // more pools than pool-apply threads, onboarded at once: one reconcile applies them
    // concurrently, and each pool's workflow must see its own desired objects only
    List<String> ids = java.util.stream.IntStream.range(0, 12).mapToObj(i -> "con" + i).toList();
    for (String id : ids) {
      assertThat(api("POST", "/api/v1/tenants", tenantJson(id, "gold", 5, "dedicated")).status())
          .isEqualTo(201);
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              for (String id : ids) {
                String ns = "isolato-t-" + id;
                assertThat(
                        kube.autoscaling()
                            .v2()
                            .horizontalPodAutoscalers()
                            .inNamespace(ns)
                            .withName("saas-bench")
                            .get())
                    .as("HPA of " + ns)
                    .isNotNull();
                ConfigMap cm = kube.configMaps().inNamespace(ns).withName("tenant-table").get();
                assertThat(cm).as("table of " + ns).isNotNull();
                assertThat(
                        JSON.readTree(cm.getData().get("tenants.json")).get("tenants").fieldNames())
                    .toIterable()
                    .as("tenants in the table of " + ns)
                    .containsExactly(id);
                assertThat(kube.namespaces().withName(ns).get().getMetadata().getLabels())
                    .containsEntry("isolato.dev/tenant", id);
              }
            });
    // each dedicated tenant's pool is a pool resource of its own, owned by the class
    for (String id : ids) {
      SloPool pool = kube.resources(SloPool.class).withName("isolato-t-" + id).get();
      assertThat(pool.getSpec().dedicatedTenant).isEqualTo(id);
      assertThat(pool.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(r -> assertThat(r.getName()).isEqualTo("gold"));
    }
    for (String id : ids) {
      assertThat(api("DELETE", "/api/v1/tenants/" + id, null).status()).isEqualTo(202);
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              for (String id : ids) {
                assertThat(kube.resources(Tenant.class).inNamespace(NS).withName(id).get())
                    .as(id)
                    .isNull();
              }
            });
  }

  @Test
  @org.junit.jupiter.api.Order(31)
  @DocClaim("docs/api.md: 202: the tenant leaves its table")
  @DocClaim("docs/api.md: | 404 | unknown tenant / class")
  @DocClaim("docs/api.md: DELETE of a class that still has tenants → 409.")
  @DocClaim("docs/api.md: class still in use")
  void deletingASharedTenantRemovesItFromTheTable() throws Exception {
    assertThat(api("DELETE", "/api/v1/tenants/beta", null).status()).isEqualTo(202);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(kube.resources(Tenant.class).inNamespace(NS).withName("beta").get())
                  .isNull();
              ConfigMap cm =
                  kube.configMaps().inNamespace("isolato-c-gold").withName("tenant-table").get();
              assertThat(JSON.readTree(cm.getData().get("tenants.json")).get("tenants").has("beta"))
                  .isFalse();
            });
    assertThat(api("DELETE", "/api/v1/tenants/beta", null).status()).isEqualTo(404);
    assertThat(api("DELETE", "/api/v1/slo-classes/gold", null).status())
        .as("class still has acme")
        .isEqualTo(409);
  }

  @Test
  @org.junit.jupiter.api.Order(40)
  void metricsAreOnTheManagementPortOnlyAndOpenApiIsServed() throws Exception {
    Reply prom = callPort(managementPort, "GET", "/actuator/prometheus", null);
    assertThat(prom.status()).isEqualTo(200);
    String text = prom.raw().body();
    assertThat(text)
        .contains(
            "operator_sdk_controllers_execution_reconcile_seconds_count{",
            "isolato_api_client_requests_total",
            "isolato_tenants{",
            "phase=\"Provisioning\"");
    Reply docs = call("GET", "/v3/api-docs", null);
    assertThat(docs.status()).isEqualTo(200);
    assertThat(docs.body().get("paths").has("/api/v1/tenants")).isTrue();
    assertThat(callPort(managementPort, "GET", "/actuator/health/readiness", null).status())
        .isEqualTo(200);
    assertThat(call("GET", "/readyz", null).status()).as("probe on the API port").isEqualTo(200);
    assertThat(call("GET", "/livez", null).status()).isEqualTo(200);
    assertThat(call("GET", "/actuator/prometheus", null).status())
        .as("no metrics on the API port")
        .isEqualTo(401);
    assertThat(api("GET", "/actuator/prometheus", null).status()).isEqualTo(404);
  }

  @Test
  @org.junit.jupiter.api.Order(50)
  void aBurstOfTenantsCostsAtMostThreeWritesEach() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson("bulk", 4, 1000, false)).status())
        .isEqualTo(201);
    assertThat(
            api("POST", "/api/v1/tenants", tenantJson("bulk-warm", "bulk", 1, "shared")).status())
        .isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                "Provisioning"
                    .equals(
                        api("GET", "/api/v1/tenants/bulk-warm", null)
                            .body()
                            .at("/status/phase")
                            .asText()));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                api("GET", "/api/v1/slo-classes/bulk", null).body().at("/status/tenants").asInt()
                    == 1);

    int n = 40;
    long before = apiCalls.writes();
    var pool = java.util.concurrent.Executors.newFixedThreadPool(10);
    try {
      var posts =
          java.util.stream.IntStream.range(0, n)
              .mapToObj(
                  i ->
                      pool.submit(
                          () ->
                              api(
                                      "POST",
                                      "/api/v1/tenants",
                                      tenantJson("bulk-%02d".formatted(i), "bulk", 1, "shared"))
                                  .status()))
              .toList();
      for (var p : posts) {
        assertThat(p.get()).isEqualTo(201);
      }
    } finally {
      pool.shutdown();
    }
    // settled: every tenant has its status, the table and the class status count them all
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              for (int i = 0; i < n; i++) {
                assertThat(
                        kube.resources(Tenant.class)
                            .inNamespace(NS)
                            .withName("bulk-%02d".formatted(i))
                            .get()
                            .getStatus())
                    .as("status of bulk-%02d", i)
                    .isNotNull();
              }
              JsonNode table =
                  JSON.readTree(
                      kube.configMaps()
                          .inNamespace("isolato-c-bulk")
                          .withName("tenant-table")
                          .get()
                          .getData()
                          .get("tenants.json"));
              assertThat(table.get("tenants").size()).isEqualTo(n + 1);
              assertThat(
                      api("GET", "/api/v1/slo-classes/bulk", null)
                          .body()
                          .at("/status/tenants")
                          .asInt())
                  .isEqualTo(n + 1);
            });
    long writes = apiCalls.writes() - before;
    assertThat(writes)
        .as("API writes for %d tenants (create, status, shared table and class status)", n)
        .isLessThanOrEqualTo(3L * n);
  }

  static JsonNode find(JsonNode conditions, String type) {
    for (JsonNode c : conditions) {
      if (type.equals(c.get("type").asText())) {
        return c;
      }
    }
    throw new AssertionError("no condition " + type + " in " + conditions);
  }
}
