package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.slo.CapacityPlan;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolResourcesTest {
  final SloClass gold = Fixtures.sloClass("gold", 1, 4, 50);
  final Tenant acme = Fixtures.tenant("acme", "gold", 20, TenantSpec.Isolation.shared);
  final Pool pool = new Pool("gold", "isolato-c-gold", null, List.of(acme));
  final CapacityPlan plan =
      new CapacityPlan(3, Map.of("acme", 20.0), 150, "linear-baseline", List.of());
  final String table = TenantTable.json(List.of(acme), plan, SloClassSpec.Admission.enforce);
  final PoolResources.Scaling hpa = new PoolResources.Scaling(false, null);

  SloPool desired(String tableJson, PoolResources.Scaling scaling) {
    return PoolResources.desired(
        gold, pool, plan, 50, tableJson, scaling, PoolObjectsTest.PEERS, Workload.GATE_IMAGE);
  }

  @Test
  void thePoolResourceCarriesThePlanTheTableAndItsClassAsOwner() {
    SloPool p = desired(table, hpa);
    assertThat(p.getMetadata().getName()).isEqualTo("isolato-c-gold");
    assertThat(p.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(r -> assertThat(r.getUid()).isEqualTo(gold.getMetadata().getUid()));
    assertThat(p.getSpec().tenants).containsExactly("acme");
    assertThat(p.getSpec().replicas).isEqualTo(3);
    assertThat(p.getSpec().table).isEqualTo(table);
    assertThat(p.getSpec().tableVersion()).isEqualTo(TenantTable.version(table));
    assertThat(p.getSpec().autoscaler).isEqualTo(SloPoolSpec.HPA);
    assertThat(p.getSpec().keda).isNull();
  }

  @Test
  void kedaIsChosenWithItsSettings() {
    KedaSettings k = new KedaSettings("http://127.0.0.1:9091", 5, 300, 15, 120);
    SloPool p = desired(table, new PoolResources.Scaling(true, k));
    assertThat(p.getSpec().autoscaler).isEqualTo(SloPoolSpec.KEDA);
    assertThat(p.getSpec().keda).isEqualTo(k);
  }

  @Test
  void sameSpecIsNoWriteAndAChangedTableIsOne() {
    assertThat(PoolResources.same(desired(table, hpa), desired(table, hpa))).isTrue();
    String other =
        TenantTable.json(
            List.of(acme, Fixtures.tenant("beta", "gold", 5, TenantSpec.Isolation.shared)),
            plan,
            SloClassSpec.Admission.enforce);
    assertThat(PoolResources.same(desired(table, hpa), desired(other, hpa))).isFalse();
    assertThat(PoolResources.difference(desired(table, hpa), desired(other, hpa)))
        .startsWith("spec.table");
    assertThat(PoolResources.same(null, desired(table, hpa))).isFalse();
  }

  SloPool live(long generation, Long observed, String tableVersion, int ready) {
    SloPool p = desired(table, hpa);
    p.getMetadata().setGeneration(generation);
    SloPoolStatus s = new SloPoolStatus();
    s.observedGeneration = observed;
    s.tableVersion = tableVersion;
    s.readyReplicas = ready;
    s.tableMessage = "m";
    p.setStatus(s);
    return p;
  }

  @Test
  void aStatusOfAnOlderSpecSaysNothingYet() {
    assertThat(PoolResources.state(live(2, 1L, TenantTable.version(table), 1))).isEmpty();
    assertThat(PoolResources.state(desired(table, hpa))).as("no status at all").isEmpty();
  }

  @Test
  void synced_onlyWhenTheReadyPodsHoldTheSpecsTable() {
    assertThat(PoolResources.state(live(2, 2L, TenantTable.version(table), 2)))
        .hasValueSatisfying(s -> assertThat(s.tableSynced()).isTrue());
    assertThat(PoolResources.state(live(2, 2L, "older", 2)))
        .hasValueSatisfying(s -> assertThat(s.tableSynced()).isFalse());
    assertThat(PoolResources.state(live(2, 2L, TenantTable.version(table), 0)))
        .as("no ready pod")
        .hasValueSatisfying(s -> assertThat(s.tableSynced()).isFalse());
  }

  @Test
  void aFailedApplyIsTheReadyFalseCondition() {
    SloPool p = live(1, 1L, null, 0);
    assertThat(PoolResources.failure(p)).isEmpty();
    p.getStatus().conditions =
        List.of(
            new ConditionBuilder()
                .withType("Ready")
                .withStatus("False")
                .withReason(PoolResources.NAMESPACE_CONFLICT)
                .withMessage("not Isolato's")
                .build());
    assertThat(PoolResources.failure(p))
        .hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo("NamespaceConflict"));
  }
}
