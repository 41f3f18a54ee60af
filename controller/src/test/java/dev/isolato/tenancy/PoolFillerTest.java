package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.slo.CapacityPlan;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Vertical headroom (issue 12 item 6): the class pods' limits, the filler and what admits it. */
class PoolFillerTest {
  final SloClass gold = Fixtures.sloClass("gold", 1, 4, 50);
  final Tenant acme = Fixtures.tenant("acme", "gold", 20, TenantSpec.Isolation.shared);
  final CapacityPlan plan =
      new CapacityPlan(3, Map.of("acme", 20.0), 150, "linear-baseline", List.of());
  final Pool pool = new Pool("gold", "isolato-c-gold", null, List.of(acme));

  List<HasMetadata> build() {
    return PoolObjects.build(
        new PoolObjects.Input(gold, pool, plan, "{}", List.of("t"), PoolObjectsTest.PEERS));
  }

  void headroom(String cpu, boolean filler) {
    gold.getSpec().headroom = new SloClassSpec.Headroom();
    gold.getSpec().headroom.cpu = cpu;
    gold.getSpec().headroom.filler = filler;
  }

  static <T extends HasMetadata> List<T> all(List<HasMetadata> objs, Class<T> type) {
    return objs.stream().filter(type::isInstance).map(type::cast).toList();
  }

  static BigDecimal amount(Quantity q) {
    return Quantity.getAmountInBytes(q);
  }

  Deployment classDeployment(List<HasMetadata> objs) {
    return all(objs, Deployment.class).stream()
        .filter(d -> !PoolObjects.isFiller(d))
        .findFirst()
        .orElseThrow();
  }

  Deployment filler(List<HasMetadata> objs) {
    return all(objs, Deployment.class).stream()
        .filter(PoolObjects::isFiller)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void withoutHeadroomThereIsNoFillerAndRequestsEqualLimits() {
    List<HasMetadata> objs = build();
    assertThat(objs).noneMatch(PoolObjects::isFiller);
    var c = classDeployment(objs).getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(c.getResources().getRequests()).isEqualTo(c.getResources().getLimits());
  }

  @Test
  void headroomRaisesTheClassPodsCpuLimitAboveTheirRequest() {
    headroom("150m", true);
    var c = classDeployment(build()).getSpec().getTemplate().getSpec().getContainers().get(0);
    // the app's share of the 500m pod (the gate keeps its fixed 50m), plus the headroom
    assertThat(c.getResources().getRequests()).containsEntry("cpu", new Quantity("450m"));
    assertThat(amount(c.getResources().getLimits().get("cpu"))).isEqualByComparingTo("0.6");
    assertThat(c.getResources().getLimits().get("memory"))
        .isEqualTo(c.getResources().getRequests().get("memory"));
  }

  @Test
  void theFillerRunsTheSoakAtTheLowestPriorityWithATinyRequestAndTheHeadroomAsLimit() {
    headroom("300m", true);
    List<HasMetadata> objs = build();
    Deployment f = filler(objs);
    assertThat(f.getMetadata().getName()).isEqualTo(Workload.FILLER_NAME);
    assertThat(f.getMetadata().getNamespace()).isEqualTo("isolato-c-gold");
    assertThat(f.getSpec().getReplicas()).isEqualTo(1);
    assertThat(f.getSpec().getStrategy().getType()).isEqualTo("Recreate");
    var pod = f.getSpec().getTemplate().getSpec();
    var c = pod.getContainers().get(0);
    assertThat(c.getArgs()).containsExactly("soak");
    assertThat(c.getImage()).isEqualTo(Workload.DEFAULT_IMAGE);
    assertThat(amount(c.getResources().getRequests().get("cpu"))).isEqualByComparingTo("0.01");
    assertThat(amount(c.getResources().getLimits().get("cpu"))).isEqualByComparingTo("0.3");
    assertThat(c.getPorts()).isNullOrEmpty();
    assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();

    PriorityClass pc =
        all(objs, PriorityClass.class).stream()
            .filter(PoolObjects::isFiller)
            .findFirst()
            .orElseThrow();
    assertThat(pod.getPriorityClassName())
        .isEqualTo(pc.getMetadata().getName())
        .isEqualTo("isolato-f-gold");
    assertThat(pc.getValue()).isLessThan(-SpecLimits.MAX_PRIORITY);
    assertThat(pc.getPreemptionPolicy()).isEqualTo("Never");
    assertThat(pc.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(r -> assertThat(r.getUid()).isEqualTo("uid-gold"));
    assertThat(f.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(r -> assertThat(r.getUid()).isEqualTo("uid-gold"));
  }

  @Test
  void nothingThatCountsTheClassPodsSelectsTheFiller() {
    headroom("300m", true);
    List<HasMetadata> objs = build();
    Map<String, String> fillerPod = filler(objs).getSpec().getTemplate().getMetadata().getLabels();
    Map<String, String> service = all(objs, Service.class).get(0).getSpec().getSelector();
    Map<String, String> classSelector =
        classDeployment(objs).getSpec().getSelector().getMatchLabels();
    assertThat(fillerPod.entrySet().containsAll(service.entrySet()))
        .as("the Service selects the filler")
        .isFalse();
    assertThat(fillerPod.entrySet().containsAll(classSelector.entrySet()))
        .as("the class Deployment selects the filler")
        .isFalse();
    assertThat(fillerPod)
        .containsEntry(PoolObjects.ROLE_LABEL, PoolObjects.FILLER_ROLE)
        .containsEntry(PoolObjects.MANAGED_BY, PoolObjects.MANAGER);
  }

  @Test
  void theQuotaAndLimitRangeAdmitTheClassPodsAtTheirLimitsAndTheFiller() {
    headroom("300m", true);
    List<HasMetadata> objs = build();
    ResourceQuota q = all(objs, ResourceQuota.class).get(0);
    // 4 replicas + 1 surge pod of 500m (limit 800m), and the filler (10m, limit 300m, 16Mi)
    assertThat(q.getSpec().getHard().get("pods")).isEqualTo(new Quantity("6"));
    assertThat(amount(q.getSpec().getHard().get("requests.cpu"))).isEqualByComparingTo("2.51");
    assertThat(amount(q.getSpec().getHard().get("limits.cpu"))).isEqualByComparingTo("4.3");
    assertThat(amount(q.getSpec().getHard().get("limits.memory")))
        .isEqualByComparingTo(String.valueOf((5L * 128 + 16) * 1024 * 1024));
    var limit = all(objs, LimitRange.class).get(0).getSpec().getLimits().get(0);
    assertThat(amount(limit.getMax().get("cpu"))).isEqualByComparingTo("0.8");
    assertThat(limit.getDefaultRequest()).containsEntry("cpu", new Quantity("500m"));
    // every container of the pool fits the LimitRange's max
    for (Deployment d : all(objs, Deployment.class)) {
      var r = d.getSpec().getTemplate().getSpec().getContainers().get(0).getResources();
      assertThat(amount(r.getLimits().get("cpu")))
          .isLessThanOrEqualTo(amount(limit.getMax().get("cpu")));
      assertThat(amount(r.getLimits().get("memory")))
          .isLessThanOrEqualTo(amount(limit.getMax().get("memory")));
    }
  }

  @Test
  void headroomWithoutFillerRaisesTheLimitsOnly() {
    headroom("300m", false);
    List<HasMetadata> objs = build();
    assertThat(objs).noneMatch(PoolObjects::isFiller);
    assertThat(all(objs, ResourceQuota.class).get(0).getSpec().getHard().get("pods"))
        .isEqualTo(new Quantity("5"));
    assertThat(
            amount(
                classDeployment(objs)
                    .getSpec()
                    .getTemplate()
                    .getSpec()
                    .getContainers()
                    .get(0)
                    .getResources()
                    .getLimits()
                    .get("cpu")))
        .isEqualByComparingTo("0.75");
  }

  @Test
  void anAutoscaledClassDeploymentDoesNotMultiplyTheFiller() {
    headroom("300m", true);
    List<HasMetadata> objs = build();
    Deployment live =
        new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder(classDeployment(objs))
            .editSpec()
            .withReplicas(4)
            .endSpec()
            .build();
    List<HasMetadata> floored = objs.stream().map(o -> PoolObjects.floorReplicas(o, live)).toList();
    assertThat(classDeployment(floored).getSpec().getReplicas()).isEqualTo(4);
    assertThat(filler(floored).getSpec().getReplicas()).isEqualTo(1);
  }
}
