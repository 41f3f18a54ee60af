package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.slo.CapacityPlan;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolObjectsTest {
  final SloClass gold = Fixtures.sloClass("gold", 1, 4, 50);
  final Tenant acme = Fixtures.tenant("acme", "gold", 20, TenantSpec.Isolation.shared);
  final CapacityPlan plan = new CapacityPlan(3, Map.of("acme", 20.0), 150, "linear-baseline", List.of());

  List<HasMetadata> build(Pool pool) {
    return PoolObjects.build(new PoolObjects.Input(gold, pool, plan, "{}", "secret"));
  }

  @Test
  void aSharedPoolHasEveryObjectInTheClassNamespaceOwnedByTheClass() {
    List<HasMetadata> objs = build(new Pool("gold", "isolato-gold", null, List.of(acme)));
    assertThat(objs).extracting(HasMetadata::getKind).containsExactly("Namespace", "PriorityClass", "ResourceQuota",
        "LimitRange", "Secret", "ConfigMap", "Deployment", "Service", "HorizontalPodAutoscaler");
    assertThat(objs).allSatisfy(o -> assertThat(o.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(r -> {
          assertThat(r.getUid()).isEqualTo("uid-gold");
          assertThat(r.getController()).isTrue();
        }));
    assertThat(objs).filteredOn(o -> !o.getKind().equals("Namespace") && !o.getKind().equals("PriorityClass"))
        .allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isEqualTo("isolato-gold"));
  }

  @Test
  void theDeploymentIsGuaranteedQosWithThePlannedReplicas() {
    Deployment d = (Deployment) build(new Pool("gold", "isolato-gold", null, List.of(acme))).get(6);
    var c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(d.getSpec().getReplicas()).isEqualTo(3);
    assertThat(c.getResources().getRequests()).isEqualTo(c.getResources().getLimits())
        .containsEntry("cpu", new Quantity("500m")).containsEntry("memory", new Quantity("128Mi"));
    assertThat(c.getImage()).isEqualTo(Workload.DEFAULT_IMAGE);
    assertThat(c.getImagePullPolicy()).isEqualTo("IfNotPresent");
    assertThat(c.getArgs()).containsSubsequence("--tenants", "/etc/saas-bench/table/tenants.json")
        .containsSubsequence("--admin-token-file", "/etc/saas-bench/admin/token");
    assertThat(c.getVolumeMounts()).extracting(m -> m.getMountPath())
        .containsExactly("/etc/saas-bench/table", "/etc/saas-bench/admin", "/data");
    assertThat(d.getSpec().getTemplate().getSpec().getPriorityClassName()).isEqualTo("isolato-gold");
    assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(d.getSpec().getSelector().getMatchLabels());
  }

  @Test
  void theImageComesFromTheClassWhenSet() {
    gold.getSpec().image = "localhost/other:1";
    Deployment d = (Deployment) build(new Pool("gold", "isolato-gold", null, List.of(acme))).get(6);
    assertThat(d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("localhost/other:1");
  }

  @Test
  void quotaAndLimitsFollowTheClassShapeAndCeiling() {
    List<HasMetadata> objs = build(new Pool("gold", "isolato-gold", null, List.of(acme)));
    ResourceQuota q = (ResourceQuota) objs.get(2);
    // 4 replicas + 1 surge pod of 500m / 128Mi
    assertThat(q.getSpec().getHard().get("pods")).isEqualTo(new Quantity("5"));
    assertThat(Quantity.getAmountInBytes(q.getSpec().getHard().get("limits.cpu"))).isEqualByComparingTo("2.5");
    assertThat(Quantity.getAmountInBytes(q.getSpec().getHard().get("requests.memory"))).isEqualByComparingTo(String.valueOf(5L * 128 * 1024 * 1024));
    LimitRange lr = (LimitRange) objs.get(3);
    assertThat(lr.getSpec().getLimits().get(0).getDefault()).isEqualTo(lr.getSpec().getLimits().get(0).getDefaultRequest());
  }

  @Test
  void theAutoscalerUsesThePivotPointAndThePlanAsFloor() {
    HorizontalPodAutoscaler h = (HorizontalPodAutoscaler) build(new Pool("gold", "isolato-gold", null, List.of(acme))).get(8);
    assertThat(h.getSpec().getMinReplicas()).isEqualTo(3);
    assertThat(h.getSpec().getMaxReplicas()).isEqualTo(4);
    assertThat(h.getSpec().getMetrics().get(0).getResource().getTarget().getAverageUtilization()).isEqualTo(65);
  }

  @Test
  void aDedicatedPoolIsLabelledWithItsTenant() {
    List<HasMetadata> objs = build(new Pool("gold", "isolato-gold-acme", "acme", List.of(acme)));
    assertThat(objs.get(0).getMetadata().getName()).isEqualTo("isolato-gold-acme");
    assertThat(objs.get(0).getMetadata().getLabels()).containsEntry("isolato.dev/tenant", "acme")
        .containsEntry("isolato.dev/isolation", "dedicated");
  }
}
