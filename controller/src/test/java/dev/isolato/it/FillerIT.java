package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.isolato.DocClaim;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassSpec;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Vertical headroom on a real API server (issue 12 item 6): the filler Deployment and its
 * PriorityClass are created owned by the class, removed when the class opts out, never made of a
 * foreign object, and the class deletes cleanly with them.
 */
class FillerIT extends ItBase {
  static final Duration WAIT = Duration.ofSeconds(30);
  static final String CLASS = "fill";
  static final String POOL = "isolato-c-fill";
  static final String FILLER = "isolato-filler";
  static final String FILLER_PC = "isolato-f-fill";

  /**
   * The IT class (250m pods, 2 replicas at most) with {@code headroom} (JSON) or without (null).
   */
  static String classWith(String headroom) {
    String json = classJson(CLASS, 2, 50, false);
    return headroom == null
        ? json
        : json.replace(
            "\"admission\":\"enforce\"", "\"admission\":\"enforce\",\"headroom\":" + headroom);
  }

  static Deployment deployment(String name) {
    return kube.apps().deployments().inNamespace(POOL).withName(name).get();
  }

  static PriorityClass fillerPriorityClass() {
    return kube.scheduling().v1().priorityClasses().withName(FILLER_PC).get();
  }

  static String classUid() {
    return kube.resources(SloClass.class).withName(CLASS).get().getMetadata().getUid();
  }

  /** The pod's CPU: its containers' (the app's and, in class pods, the gate's) summed. */
  static Quantity cpu(Deployment d, boolean limit) {
    java.math.BigDecimal sum = java.math.BigDecimal.ZERO;
    for (var c : d.getSpec().getTemplate().getSpec().getContainers()) {
      var r = c.getResources();
      sum =
          sum.add(Quantity.getAmountInBytes((limit ? r.getLimits() : r.getRequests()).get("cpu")));
    }
    return Quantity.fromNumericalAmount(sum, "");
  }

  static Condition ready() {
    SloClass c = kube.resources(SloClass.class).withName(CLASS).get();
    return c.getStatus() == null
        ? null
        : c.getStatus().conditions.stream()
            .filter(x -> "Ready".equals(x.getType()))
            .findFirst()
            .orElse(null);
  }

  @Test
  @Order(1)
  void aClassWithHeadroomGetsItsOwnedFillerAndBurstableLimits() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classWith("{\"cpu\":\"150m\"}")).status())
        .isEqualTo(201);
    await().atMost(WAIT).until(() -> deployment(FILLER) != null && fillerPriorityClass() != null);
    String uid = classUid();
    Deployment filler = deployment(FILLER);
    assertThat(filler.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(r -> assertThat(r.getUid()).isEqualTo(uid));
    assertThat(filler.getMetadata().getLabels())
        .containsEntry("isolato.dev/role", "filler")
        .containsEntry("app.kubernetes.io/managed-by", "isolato");
    assertThat(Quantity.getAmountInBytes(cpu(filler, true))).isEqualByComparingTo("0.15");
    assertThat(filler.getSpec().getTemplate().getSpec().getPriorityClassName())
        .isEqualTo(FILLER_PC);
    PriorityClass pc = fillerPriorityClass();
    assertThat(pc.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(r -> assertThat(r.getUid()).isEqualTo(uid));
    assertThat(pc.getValue())
        .isLessThan(
            kube.scheduling().v1().priorityClasses().withName("isolato-c-fill").get().getValue());
    assertThat(pc.getPreemptionPolicy()).isEqualTo("Never");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              Deployment cls = deployment("saas-bench");
              assertThat(Quantity.getAmountInBytes(cpu(cls, true))).isEqualByComparingTo("0.4");
              assertThat(Quantity.getAmountInBytes(cpu(cls, false))).isEqualByComparingTo("0.25");
              // 2 replicas + surge + filler
              assertThat(
                      kube.resourceQuotas()
                          .inNamespace(POOL)
                          .withName("isolato-pool")
                          .get()
                          .getSpec()
                          .getHard()
                          .get("pods"))
                  .isEqualTo(new Quantity("4"));
            });
  }

  @Test
  @Order(2)
  @DocClaim("docs/api.md: (400 otherwise, as the CRD's 422)")
  void aHeadroomOfNoCpuIsRefusedByTheApiAndTheApiServerAlike() throws Exception {
    Reply r = api("PUT", "/api/v1/slo-classes/" + CLASS, classWith("{\"cpu\":\"0\"}"));
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body().toString()).contains("spec.headroom.cpu", "positive Kubernetes quantity");
    SloClass bad = kube.resources(SloClass.class).withName(CLASS).get();
    bad.getSpec().headroom = new SloClassSpec.Headroom();
    bad.getSpec().headroom.cpu = "0";
    assertThatThrownBy(() -> kube.resource(bad).update())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422));
  }

  @Test
  @Order(3)
  void optingOutRemovesTheFillerAndDroppingHeadroomRestoresRequestsEqualLimits() throws Exception {
    assertThat(
            api(
                    "PUT",
                    "/api/v1/slo-classes/" + CLASS,
                    classWith("{\"cpu\":\"150m\",\"filler\":false}"))
                .status())
        .isEqualTo(200);
    await().atMost(WAIT).until(() -> deployment(FILLER) == null && fillerPriorityClass() == null);
    assertThat(Quantity.getAmountInBytes(cpu(deployment("saas-bench"), true)))
        .as("headroom stays")
        .isEqualByComparingTo("0.4");

    assertThat(api("PUT", "/api/v1/slo-classes/" + CLASS, classWith(null)).status()).isEqualTo(200);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              Deployment cls = deployment("saas-bench");
              assertThat(Quantity.getAmountInBytes(cpu(cls, true)))
                  .isEqualByComparingTo(Quantity.getAmountInBytes(cpu(cls, false)));
            });
    assertThat(deployment(FILLER)).isNull();
  }

  @Test
  @Order(4)
  @DocClaim("docs/autoscaling.md: a foreign object of the filler's name is refused, never adopted")
  void aForeignDeploymentOfTheFillersNameIsNeitherAdoptedNorDeleted() throws Exception {
    kube.apps()
        .deployments()
        .inNamespace(POOL)
        .resource(
            new DeploymentBuilder()
                .withNewMetadata()
                .withName(FILLER)
                .addToLabels("example.com/team", "batch")
                .endMetadata()
                .withNewSpec()
                .withNewSelector()
                .addToMatchLabels("app", "batch")
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", "batch")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("example.com/batch:1")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();
    assertThat(api("PUT", "/api/v1/slo-classes/" + CLASS, classWith("{\"cpu\":\"150m\"}")).status())
        .isEqualTo(200);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              Condition ready = ready();
              assertThat(ready).isNotNull();
              assertThat(ready.getReason()).isEqualTo("NamespaceConflict");
              assertThat(ready.getMessage()).contains(FILLER, "not Isolato's");
            });
    Deployment foreign = deployment(FILLER);
    assertThat(foreign.getMetadata().getOwnerReferences()).isNullOrEmpty();
    assertThat(foreign.getMetadata().getLabels()).containsOnlyKeys("example.com/team");
    assertThat(foreign.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
        .isEqualTo("example.com/batch:1");

    // once it is gone, the class gets its own
    kube.apps().deployments().inNamespace(POOL).withName(FILLER).withGracePeriod(0).delete();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              Deployment own = deployment(FILLER);
              assertThat(own).isNotNull();
              assertThat(own.getMetadata().getOwnerReferences())
                  .singleElement()
                  .satisfies(r -> assertThat(r.getUid()).isEqualTo(classUid()));
              assertThat(ready().getReason()).isNotEqualTo("NamespaceConflict");
            });
  }

  @Test
  @Order(5)
  void aClassWithAFillerIsDeletedWithoutStayingTerminating() throws Exception {
    assertThat(api("DELETE", "/api/v1/slo-classes/" + CLASS, null).status()).isIn(200, 202, 204);
    await().atMost(WAIT).until(() -> kube.resources(SloClass.class).withName(CLASS).get() == null);
  }
}
