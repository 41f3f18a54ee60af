package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.slo.CapacityPlan;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodLimitsTest {
  static final long MIB = PodLimits.MIB;

  @Test
  void scratchIsTwiceWhatTheWorkersCanWriteRoundedUpToAPowerOfTwo() {
    // 1 worker (500m) × io 4096 × 4 KiB = 16 MiB, × 2 = 32 MiB
    assertThat(PodLimits.derived(500, 4096).scratchBytes()).isEqualTo(32 * MIB);
    // 2 workers (1500m) × io 3000 × 4 KiB ≈ 23.4 MiB, × 2 ≈ 46.9 MiB -> 64 MiB
    assertThat(PodLimits.derived(1500, 3000).scratchBytes()).isEqualTo(64 * MIB);
    // the largest profile (64 MiB per request) on one worker
    assertThat(PodLimits.derived(1000, SpecLimits.MAX_PROFILE_IO).scratchBytes())
        .isEqualTo(128 * MIB);
  }

  @Test
  void smallProfilesGetTheFloorSoOnboardingSimilarTenantsRollsNothing() {
    assertThat(PodLimits.derived(500, 0).scratchBytes()).isEqualTo(PodLimits.MIN_SCRATCH);
    assertThat(PodLimits.derived(500, 100).scratchBytes()).isEqualTo(PodLimits.MIN_SCRATCH);
    assertThat(PodLimits.derived(500, 1500)).isEqualTo(PodLimits.derived(500, 1100));
  }

  @Test
  void ephemeralStorageIsScratchPlusTheLogAllowance() {
    PodLimits l = PodLimits.withScratch(8 * MIB);
    assertThat(l.ephemeralBytes()).isEqualTo(8 * MIB + PodLimits.LOG_ALLOWANCE);
    assertThat(PodLimits.quantity(l.ephemeralBytes())).isEqualTo("72Mi");
  }

  @Test
  void theLargestIoOfThePoolsTenantsCounts() {
    Tenant a = Fixtures.tenant("a", "gold", 10, TenantSpec.Isolation.shared);
    Tenant b = Fixtures.tenant("b", "gold", 10, TenantSpec.Isolation.shared);
    b.getSpec().profile.io = 700;
    assertThat(PodLimits.maxIo(List.of(a, b))).isEqualTo(700);
    assertThat(PodLimits.maxIo(List.of())).isZero();
  }

  static Deployment deployment(SloClass c, List<Tenant> tenants) {
    CapacityPlan plan = new CapacityPlan(2, Map.of(), 100, "linear-baseline", List.of());
    Pool pool = new Pool(c.getMetadata().getName(), "isolato-c-gold", null, tenants);
    return PoolObjects.build(
            new PoolObjects.Input(c, pool, plan, "{}", List.of("t"), PoolObjectsTest.PEERS))
        .stream()
        .filter(Deployment.class::isInstance)
        .map(Deployment.class::cast)
        .filter(d -> !PoolObjects.isFiller(d))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void thePoolPodHasEphemeralStorageRequestsEqualLimitsAndASizedEmptyDir() {
    Tenant t = Fixtures.tenant("acme", "gold", 10, TenantSpec.Isolation.shared);
    t.getSpec().profile.io = 4096;
    var pod = deployment(Fixtures.sloClass("gold", 1, 4, 50), List.of(t)).getSpec().getTemplate();
    var res = pod.getSpec().getContainers().get(0).getResources();
    assertThat(res.getRequests()).isEqualTo(res.getLimits());
    assertThat(res.getLimits()).containsEntry("ephemeral-storage", new Quantity("96Mi"));
    assertThat(pod.getSpec().getVolumes())
        .filteredOn(v -> v.getName().equals("data"))
        .singleElement()
        .satisfies(v -> assertThat(v.getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("32Mi")));
  }

  @Test
  void aClassMayDeclareItsScratchSize() {
    SloClass c = Fixtures.sloClass("gold", 1, 4, 50);
    c.getSpec().storage = new StorageSpec();
    c.getSpec().storage.scratch = "8Mi";
    var pod = deployment(c, List.of()).getSpec().getTemplate().getSpec();
    assertThat(pod.getVolumes())
        .filteredOn(v -> v.getName().equals("data"))
        .singleElement()
        .satisfies(v -> assertThat(v.getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("8Mi")));
    assertThat(pod.getContainers().get(0).getResources().getLimits())
        .containsEntry("ephemeral-storage", new Quantity("72Mi"));
  }
}
