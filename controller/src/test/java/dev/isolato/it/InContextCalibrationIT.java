package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.isolato.DocClaim;
import dev.isolato.incontext.CalibrationObjects;
import dev.isolato.incontext.InContextCalibrations;
import dev.isolato.tenancy.SloClass;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 34 item 1 on a real kube-apiserver: {@code POST /api/v1/slo-classes/{name}/calibrations}
 * makes a replica of the class that the tenants' Service and the Deployment do not select, owned by
 * the class; once the replica is ready (a node and the pod's status are written here: no kubelet
 * runs) the loop starts the generator Job on its node; when the Job fails the calibration says so
 * and every object is deleted. The generator's run itself needs a kubelet: the localkube e2e
 * (controller/test/calibration-e2e.sh) runs it.
 */
class InContextCalibrationIT extends ItBase {
  static final String CLS = "incal";
  static final String POOL = "isolato-c-incal";

  @Test
  @DocClaim("docs/api.md: 202 + `Location`: an in-context calibration started")
  void aCalibrationReplicaIsOutOfTheServiceOwnedByTheClassAndCleanedUp() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson(CLS, 3, 80, false)).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("ic-1", CLS, 20, "shared")).status())
        .isEqualTo(201);
    await().atMost(Duration.ofSeconds(30)).until(() -> deployment() != null);

    Reply early = api("POST", "/api/v1/slo-classes/" + CLS + "/calibrations", null);
    assertThat(early.status()).as("no ready pod to copy yet").isEqualTo(409);
    assertThat(early.raw().headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    assertThat(early.body().get("detail").asText()).contains("no ready pod");
    assertThat(api("POST", "/api/v1/slo-classes/nope/calibrations", null).status()).isEqualTo(404);
    assertThat(call("POST", "/api/v1/slo-classes/" + CLS + "/calibrations", null).status())
        .as("unauthenticated")
        .isEqualTo(401);

    // no controller-manager here: the Deployment's ready pod is written by hand
    markReady(POOL);
    Deployment d = deployment();

    Reply started = api("POST", "/api/v1/slo-classes/" + CLS + "/calibrations", null);
    assertThat(started.status()).isEqualTo(202);
    String id = started.body().get("id").asText();
    assertThat(started.body().get("phase").asText()).isEqualTo("Pending");
    assertThat(started.raw().headers().firstValue("Location"))
        .contains("/api/v1/slo-classes/" + CLS + "/calibrations/" + id);
    assertThat(started.body().get("rates")).hasSize(7);
    Reply again = api("POST", "/api/v1/slo-classes/" + CLS + "/calibrations", null);
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.body().get("title").asText()).isEqualTo("Calibration running");
    assertThat(api("GET", "/api/v1/slo-classes/" + CLS + "/calibrations/" + id, null).status())
        .isEqualTo(200);
    assertThat(api("GET", "/api/v1/slo-classes/" + CLS + "/calibrations/other", null).status())
        .isEqualTo(404);

    String name = CalibrationObjects.name(id);
    Pod replica = kube.pods().inNamespace(POOL).withName(name).get();
    SloClass cls = kube.resources(SloClass.class).withName(CLS).get();
    Service svc = kube.services().inNamespace(POOL).withName("saas-bench").get();
    assertThat(selects(svc.getSpec().getSelector(), replica))
        .as("the tenants' Service selects the replica")
        .isFalse();
    assertThat(
            kube.pods().inNamespace(POOL).withLabels(svc.getSpec().getSelector()).list().getItems())
        .extracting(p -> p.getMetadata().getName())
        .doesNotContain(name);
    assertThat(selects(d.getSpec().getSelector().getMatchLabels(), replica))
        .as("the Deployment selects the replica")
        .isFalse();
    assertThat(replica.getSpec().getContainers())
        .extracting(c -> c.getResources().getLimits().get("cpu"))
        .containsExactlyElementsOf(
            d.getSpec().getTemplate().getSpec().getContainers().stream()
                .map(c -> c.getResources().getLimits().get("cpu"))
                .toList());
    assertThat(replica.getSpec().getNodeName()).as("nothing pinned").isNull();
    assertThat(replica.getMetadata().getLabels())
        .as("out of the pool-pod scrape (managed-by=isolato) and of the pool's label")
        .containsEntry("app.kubernetes.io/managed-by", "isolato-calibration")
        .doesNotContainKey("isolato.dev/pool")
        .containsEntry("isolato.dev/class", CLS);
    ConfigMap table = kube.configMaps().inNamespace(POOL).withName(name).get();
    assertThat(table.getData().get("tenants.json")).contains("ic-1").doesNotContain("rateRps");
    assertThat(
            kube.configMaps()
                .inNamespace(POOL)
                .withName("tenant-table")
                .get()
                .getData()
                .get("tenants.json"))
        .contains("rateRps");
    List<HasMetadata> owned =
        List.of(
            replica,
            table,
            kube.network().v1().networkPolicies().inNamespace(POOL).withName(name).get());
    for (HasMetadata o : owned) {
      assertThat(o.getMetadata().getOwnerReferences())
          .as("%s owned by the class", o.getKind())
          .anyMatch(r -> r.getUid().equals(cls.getMetadata().getUid()));
    }

    // the replica lands on a node and is ready (the kubelet's part, written here)
    kube.nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName("it-cal-node")
                .addToLabels("kubernetes.io/hostname", "it-cal-node")
                .endMetadata()
                .build())
        .create();
    kube.bindings()
        .inNamespace(POOL)
        .resource(
            new io.fabric8.kubernetes.api.model.BindingBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewTarget()
                .withKind("Node")
                .withName("it-cal-node")
                .endTarget()
                .build())
        .create();
    Pod bound = kube.pods().inNamespace(POOL).withName(name).get();
    bound.setStatus(
        new io.fabric8.kubernetes.api.model.PodStatusBuilder()
            .withPhase("Running")
            .withPodIP("10.244.0.99")
            .withConditions(new PodConditionBuilder().withType("Ready").withStatus("True").build())
            .build());
    kube.pods().inNamespace(POOL).resource(bound).updateStatus();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> kube.batch().v1().jobs().inNamespace(NS).withName(name).get() != null);
    Job job = kube.batch().v1().jobs().inNamespace(NS).withName(name).get();
    assertThat(job.getSpec().getTemplate().getSpec().getNodeSelector())
        .containsEntry("kubernetes.io/hostname", "it-cal-node");
    assertThat(
            String.join(
                " ", job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs()))
        .contains("-url http://10.244.0.99:8080")
        .contains("-tenants ic-1")
        .contains("-out - -self-stats")
        .as("an image class without requestMix replays saas-bench's route")
        .contains(
            "-request {\"endpoints\":[{\"method\":\"POST\",\"path\":\"/v1/tenants/{tenant}/requests\"");
    assertThat(job.getSpec().getBackoffLimit()).isZero();
    assertThat(job.getMetadata().getOwnerReferences())
        .anyMatch(r -> r.getUid().equals(cls.getMetadata().getUid()));
    await().atMost(Duration.ofSeconds(10)).until(() -> "Running".equals(phase(id)));

    // the generator fails (the job controller's part, written here): the calibration fails and
    // nothing of it stays, not even Terminating
    Instant now = Instant.now();
    job.setStatus(
        new io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder()
            .withStartTime(now.minusSeconds(5).toString())
            .withFailed(1)
            .withConditions(
                new JobConditionBuilder()
                    .withType("FailureTarget")
                    .withStatus("True")
                    .withReason("BackoffLimitExceeded")
                    .withLastTransitionTime(now.toString())
                    .build(),
                new JobConditionBuilder()
                    .withType("Failed")
                    .withStatus("True")
                    .withReason("BackoffLimitExceeded")
                    .withLastTransitionTime(now.toString())
                    .build())
            .build());
    kube.batch().v1().jobs().inNamespace(NS).resource(job).updateStatus();
    await().atMost(Duration.ofSeconds(30)).until(() -> "Failed".equals(phase(id)));
    assertThat(
            api("GET", "/api/v1/slo-classes/" + CLS + "/calibrations/" + id, null)
                .body()
                .get("message")
                .asText())
        .startsWith("the generator failed");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(kube.pods().inNamespace(POOL).withName(name).get()).isNull();
              assertThat(kube.configMaps().inNamespace(POOL).withName(name).get()).isNull();
              assertThat(
                      kube.network().v1().networkPolicies().inNamespace(POOL).withName(name).get())
                  .isNull();
              assertThat(kube.batch().v1().jobs().inNamespace(NS).withName(name).get()).isNull();
            });
    assertThat(
            kube.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> CLS.equals(e.getInvolvedObject().getName()))
                .map(e -> e.getReason()))
        .contains("CalibrationStarted", "CalibrationFailed");
    assertThat(deployment().getSpec().getSelector().getMatchLabels())
        .isEqualTo(Map.copyOf(svc.getSpec().getSelector()));

    // automatic starts (isolato.calibration.auto): the class is still uncalibrated and the last
    // attempt failed; once the retry delay has passed the loop starts another by itself
    InContextCalibrations auto = autoCalibrations();
    auto.pass(List.of(kube.resources(SloClass.class).withName(CLS).get()), Instant.now());
    assertThat(kube.resources(SloClass.class).withName(CLS).get().getStatus().inContext.id)
        .as("within the retry delay of the failed attempt")
        .isEqualTo(id);
    auto.pass(
        List.of(kube.resources(SloClass.class).withName(CLS).get()),
        Instant.now().plus(Duration.ofMinutes(16)));
    var next = kube.resources(SloClass.class).withName(CLS).get().getStatus().inContext;
    assertThat(next.id).isNotEqualTo(id);
    assertThat(next.phase).isEqualTo("Pending");
    assertThat(next.reason).isEqualTo("the class has no calibration");
    auto.cleanUp(next.id, POOL);
  }

  /** The 08:42 httpbin run: saas-bench's route replayed to go-httpbin measured 404s. */
  @Test
  @DocClaim("docs/api.md: 422 when the class cannot be calibrated as specified")
  void aProvidersClassWithoutARequestMixIsNotCalibratedInContext() throws Exception {
    String spec =
        """
        {"latency":{"percentile":95,"targetMs":50},"resources":{"cpu":"250m","memory":"64Mi"},
         "minReplicas":1,"maxReplicas":2,"perPodCutoffRps":10,"tenantKey":"header:X-Tenant",
         "workload":{"containers":[{"name":"app","image":"localhost/isolato/saas-bench:dev",
           "args":["--port","8081"],"ports":[{"name":"app","containerPort":8081}]}]}}""";
    // a workload class (the image is in this test's allowlist; what it runs does not matter)
    Reply created =
        api("POST", "/api/v1/slo-classes", "{\"name\":\"incal-w\",\"spec\":" + spec + "}");
    assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
    Reply r = api("POST", "/api/v1/slo-classes/incal-w/calibrations", null);
    assertThat(r.status()).isEqualTo(422);
    assertThat(r.raw().headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    assertThat(r.body().get("title").asText()).isEqualTo("Class cannot be calibrated in context");
    assertThat(r.body().get("detail").asText())
        .contains("class incal-w runs its own workload and has no spec.requestMix");
    assertThat(kube.resources(SloClass.class).withName("incal-w").get().getStatus())
        .as("nothing started")
        .matches(st -> st == null || st.inContext == null);
    assertThat(api("DELETE", "/api/v1/slo-classes/incal-w", null).status()).isIn(200, 202, 204);
  }

  static boolean selects(Map<String, String> selector, Pod pod) {
    return pod.getMetadata().getLabels().entrySet().containsAll(selector.entrySet());
  }

  String phase(String id) throws Exception {
    return api("GET", "/api/v1/slo-classes/" + CLS + "/calibrations/" + id, null)
        .body()
        .path("phase")
        .asText();
  }

  static Deployment deployment() {
    return deployment(CLS);
  }
}
