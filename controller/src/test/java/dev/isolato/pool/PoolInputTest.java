package dev.isolato.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.slo.CapacityPlan;
import dev.isolato.tenancy.Fixtures;
import dev.isolato.tenancy.ImagePolicy;
import dev.isolato.tenancy.NetworkPeers;
import dev.isolato.tenancy.PodPlacement;
import dev.isolato.tenancy.Pool;
import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.PoolResources;
import dev.isolato.tenancy.PoolTokens;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloPool;
import dev.isolato.tenancy.SloPoolStatus;
import dev.isolato.tenancy.Tenant;
import dev.isolato.tenancy.TenantSpec;
import dev.isolato.tenancy.Workload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolInputTest {
  final SloClass gold = Fixtures.sloClass("gold", 1, 4, 50);
  final PoolTokens.Keys rotated = new PoolTokens.Keys("key-2", "key-1");

  SloPool pool() {
    return pool(null);
  }

  SloPool pool(String gateImage) {
    return pool(gateImage, List.of());
  }

  SloPool pool(String gateImage, List<Tenant> tenants) {
    return PoolResources.desired(
        gold,
        new Pool("gold", "isolato-c-gold", null, tenants),
        new CapacityPlan(2, Map.of(), 100, "linear-baseline", List.of(), 400L),
        50,
        "{\"tenants\":{},\"version\":\"v1\"}",
        new PoolResources.Scaling(false, null),
        new NetworkPeers(Map.of(), Map.of(), List.of(), "isolato-system", List.of()),
        gateImage);
  }

  @Test
  void aPoolNamedOtherwiseThanItsNamespaceOrRunningAnotherImageIsRefused() {
    var policy = new ImagePolicy(List.of(Workload.DEFAULT_IMAGE, Workload.GATE_IMAGE));
    assertThat(PoolInput.refusal(pool(), policy)).isEmpty();
    SloPool renamed = pool();
    renamed.getMetadata().setName("kube-system");
    assertThat(PoolInput.refusal(renamed, policy))
        .hasValueSatisfying(m -> assertThat(m).contains("isolato-c-gold"));
    SloPool dedicated = pool();
    dedicated.getSpec().dedicatedTenant = "acme";
    assertThat(PoolInput.refusal(dedicated, policy)).as("named as the shared pool").isPresent();
    assertThat(PoolInput.refusal(pool(), new ImagePolicy(List.of("registry.example.com/other"))))
        .isPresent();
  }

  @Test
  void theClassIsReadBackFromTheSpecAndTheOwnerReference() {
    SloClass cls = PoolInput.sloClass(pool());
    assertThat(cls.getMetadata().getName()).isEqualTo("gold");
    assertThat(cls.getMetadata().getUid()).isEqualTo(gold.getMetadata().getUid());
    assertThat(cls.getSpec()).isSameAs(gold.getSpec());
  }

  @Test
  void thePlansSizeAndPodCpuReachTheObjects() {
    var in = PoolInput.of(pool(), new PoolTokens.Keys("key-1", null));
    assertThat(in.plan().replicas()).isEqualTo(2);
    assertThat(in.plan().podCpuMillis()).isEqualTo(400L);
    assertThat(in.adminTokens()).hasSize(1);
  }

  @Test
  void whileARotationIsUnconfirmedBothTokensAreAccepted() {
    SloPool p = pool();
    assertThat(PoolInput.rotating(p, rotated)).isTrue();
    assertThat(PoolInput.of(p, rotated).adminTokens()).hasSize(2);
    SloPoolStatus s = new SloPoolStatus();
    s.adminKey = rotated.fingerprint();
    p.setStatus(s);
    assertThat(PoolInput.rotating(p, rotated)).isFalse();
    assertThat(PoolInput.of(p, rotated).adminTokens())
        .containsExactly(PoolTokens.token("key-2", "isolato-c-gold"));
  }

  @Test
  void theConfiguredGateImageReachesThePodsAndAForeignOneIsRefused() {
    String mirror = "registry.example.com/isolato/gate:1.2";
    SloPool p = pool(mirror);
    var deployment =
        (io.fabric8.kubernetes.api.model.apps.Deployment)
            PoolObjects.deployment(PoolInput.of(p, new PoolTokens.Keys("key-1", null)));
    assertThat(deployment.getSpec().getTemplate().getSpec().getContainers())
        .filteredOn(c -> c.getName().equals(Workload.GATE_NAME))
        .singleElement()
        .satisfies(c -> assertThat(c.getImage()).isEqualTo(mirror));
    var mirrorPolicy = new ImagePolicy(List.of(Workload.DEFAULT_IMAGE, mirror), mirror);
    assertThat(PoolInput.refusal(p, mirrorPolicy)).isEmpty();
    assertThat(PoolInput.refusal(p, new ImagePolicy(List.of(Workload.DEFAULT_IMAGE, "x"), "x")))
        .hasValueSatisfying(m -> assertThat(m).contains(mirror));
    // a pool written before the setting names none: the default gate image
    assertThat(PoolInput.of(pool(), new PoolTokens.Keys("key-1", null)).gateImage())
        .isEqualTo(Workload.GATE_IMAGE);
  }

  @Test
  void theTenantsIoReachesThePodsThroughThePoolResource() {
    // 100 committed fdatasyncs/s: IO-heavy; the pool resource names its tenants but holds only
    // what the class reconciler derived from them, and the pods are built from that
    Tenant t = Fixtures.tenant("acme", "gold", 100, TenantSpec.Isolation.shared);
    t.getSpec().profile.io = 2048;
    t.getSpec().profile.fsync = true;
    SloPool heavy = pool(null, List.of(t));
    assertThat(heavy.getSpec().ioHeavy).isTrue();
    assertThat(heavy.getSpec().maxIo).isEqualTo(2048);
    var pod = deployment(PoolInput.of(heavy, new PoolTokens.Keys("key-1", null)));
    assertThat(pod.getMetadata().getLabels()).containsEntry(PodPlacement.IO_HEAVY_LABEL, "true");
    assertThat(pod.getSpec().getAffinity().getPodAntiAffinity()).isNotNull();
    // 1 worker × 2048 blocks × 4 KiB = 8 MiB, with the safety factor and rounding: above 8Mi
    var scratch =
        pod.getSpec().getVolumes().stream()
            .filter(v -> v.getEmptyDir() != null && v.getName().equals("data"))
            .findFirst()
            .orElseThrow();
    assertThat(
            io.fabric8.kubernetes.api.model.Quantity.getAmountInBytes(
                    scratch.getEmptyDir().getSizeLimit())
                .longValue())
        .isGreaterThan(8L << 20);
    var light = deployment(PoolInput.of(pool(), new PoolTokens.Keys("key-1", null)));
    assertThat(light.getMetadata().getLabels()).doesNotContainKey(PodPlacement.IO_HEAVY_LABEL);
  }

  static io.fabric8.kubernetes.api.model.PodTemplateSpec deployment(PoolObjects.Input in) {
    return ((io.fabric8.kubernetes.api.model.apps.Deployment) PoolObjects.deployment(in))
        .getSpec()
        .getTemplate();
  }
}
