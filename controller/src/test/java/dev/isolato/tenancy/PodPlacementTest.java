package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import dev.isolato.calibration.FieldError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodPlacementTest {
  static Tenant tenant(String id, double rps, int io, boolean fsync) {
    Tenant t = Fixtures.tenant(id, "gold", rps, TenantSpec.Isolation.shared);
    t.getSpec().profile.io = io;
    t.getSpec().profile.fsync = fsync;
    return t;
  }

  @Test
  void ioHeavyMeansCommittedWritesOrSyncsAboveTheThresholds() {
    // 20 req/s × 100 blocks × 4 KiB = 7.8 MiB/s: below 8 MiB/s
    assertThat(PodPlacement.ioHeavy(List.of(tenant("a", 20, 100, false)))).isFalse();
    // two such tenants together are above it
    assertThat(
            PodPlacement.ioHeavy(List.of(tenant("a", 20, 100, false), tenant("b", 20, 100, false))))
        .isTrue();
    assertThat(PodPlacement.ioHeavy(List.of(tenant("a", 100, 1, true)))).isTrue();
    assertThat(PodPlacement.ioHeavy(List.of(tenant("a", 99, 1, true)))).isFalse();
    // fsync without writes syncs nothing
    assertThat(PodPlacement.ioHeavy(List.of(tenant("a", 1000, 0, true)))).isFalse();
    assertThat(PodPlacement.ioHeavy(List.of())).isFalse();
  }

  @Test
  void everyPoolSpreadsOverSchedulableNodes() {
    var pod =
        PodLimitsTest.deployment(Fixtures.sloClass("gold", 1, 4, 50), List.of())
            .getSpec()
            .getTemplate()
            .getSpec();
    assertThat(pod.getTopologySpreadConstraints())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
              assertThat(s.getMaxSkew()).isEqualTo(1);
              assertThat(s.getWhenUnsatisfiable()).isEqualTo("DoNotSchedule");
              assertThat(s.getNodeTaintsPolicy()).isEqualTo("Honor");
              assertThat(s.getLabelSelector().getMatchLabels())
                  .isEqualTo(
                      PoolObjects.selector(new Pool("gold", "isolato-c-gold", null, List.of())));
            });
    assertThat(pod.getAffinity()).isNull();
    assertThat(pod.getNodeSelector()).isNullOrEmpty();
  }

  @Test
  void anIoHeavyPoolAvoidsOtherIoHeavyClassesAndIsLabelled() {
    var tmpl =
        PodLimitsTest.deployment(
                Fixtures.sloClass("gold", 1, 4, 50), List.of(tenant("a", 200, 100, false)))
            .getSpec()
            .getTemplate();
    assertThat(tmpl.getMetadata().getLabels()).containsEntry(PodPlacement.IO_HEAVY_LABEL, "true");
    var term =
        tmpl.getSpec()
            .getAffinity()
            .getPodAntiAffinity()
            .getRequiredDuringSchedulingIgnoredDuringExecution()
            .get(0);
    assertThat(term.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
    assertThat(term.getNamespaceSelector().getMatchLabels()).isNullOrEmpty();
    assertThat(term.getLabelSelector().getMatchLabels())
        .isEqualTo(Map.of(PodPlacement.IO_HEAVY_LABEL, "true"));
    assertThat(term.getLabelSelector().getMatchExpressions())
        .singleElement()
        .satisfies(
            x -> {
              assertThat(x.getKey()).isEqualTo(PoolObjects.CLASS_LABEL);
              assertThat(x.getOperator()).isEqualTo("NotIn");
              assertThat(x.getValues()).containsExactly("gold");
            });
  }

  @Test
  @DocClaim("docs/security.md: its pods then carry neither the label nor the anti-affinity")
  void aClassOptingOutOfTheIoGuardIsNeitherLabelledNorAvoiding() {
    SloClass c = Fixtures.sloClass("gold", 1, 4, 50);
    c.getSpec().placement = new PlacementSpec();
    c.getSpec().placement.ioGuard = false;
    var tmpl =
        PodLimitsTest.deployment(c, List.of(tenant("a", 200, 100, false))).getSpec().getTemplate();
    assertThat(tmpl.getMetadata().getLabels()).doesNotContainKey(PodPlacement.IO_HEAVY_LABEL);
    assertThat(tmpl.getSpec().getAffinity()).isNull();
    // explicitly on is the default
    c.getSpec().placement.ioGuard = true;
    tmpl =
        PodLimitsTest.deployment(c, List.of(tenant("a", 200, 100, false))).getSpec().getTemplate();
    assertThat(tmpl.getMetadata().getLabels()).containsEntry(PodPlacement.IO_HEAVY_LABEL, "true");
    assertThat(tmpl.getSpec().getAffinity().getPodAntiAffinity()).isNotNull();
  }

  static PlacementSpec pool(Map<String, String> selector, PlacementSpec.Toleration... tolerations) {
    PlacementSpec p = new PlacementSpec();
    p.nodeSelector = selector;
    p.tolerations = List.of(tolerations);
    return p;
  }

  static PlacementSpec.Toleration toleration(
      String key, PlacementSpec.Operator op, String value, PlacementSpec.Effect effect) {
    PlacementSpec.Toleration t = new PlacementSpec.Toleration();
    t.key = key;
    t.operator = op;
    t.value = value;
    t.effect = effect;
    return t;
  }

  @Test
  void aClassNodePoolBecomesNodeSelectorAndTolerations() {
    SloClass c = Fixtures.sloClass("gold", 1, 4, 50);
    c.getSpec().placement =
        pool(
            Map.of("isolato.dev/pool", "gold"),
            toleration(
                "dedicated", PlacementSpec.Operator.Equal, "gold", PlacementSpec.Effect.NoSchedule),
            toleration("isolato.dev/kwok-node", PlacementSpec.Operator.Exists, null, null));
    var pod = PodLimitsTest.deployment(c, List.of()).getSpec().getTemplate().getSpec();
    assertThat(pod.getNodeSelector()).containsExactly(Map.entry("isolato.dev/pool", "gold"));
    assertThat(pod.getTolerations())
        .extracting(
            t -> t.getKey() + " " + t.getOperator() + " " + t.getValue() + " " + t.getEffect())
        .containsExactly(
            "dedicated Equal gold NoSchedule", "isolato.dev/kwok-node Exists null null");
  }

  @Test
  void placementProblemsNameTheField() {
    assertThat(PodPlacement.problems(null)).isEmpty();
    assertThat(
            PodPlacement.problems(
                pool(
                    Map.of("example.com/disk", "ssd", "zone", ""),
                    toleration("dedicated", PlacementSpec.Operator.Equal, null, null))))
        .isEmpty();
    assertThat(
            PodPlacement.problems(
                pool(
                    Map.of("bad key!", "x", "ok", "no spaces"),
                    toleration("k", PlacementSpec.Operator.Exists, "v", null),
                    toleration("-k", PlacementSpec.Operator.Equal, "v", null))))
        .extracting(FieldError::field)
        .containsExactlyInAnyOrder(
            "spec.placement.nodeSelector",
            "spec.placement.nodeSelector.ok",
            "spec.placement.tolerations[0].value",
            "spec.placement.tolerations[1].key");
  }
}
