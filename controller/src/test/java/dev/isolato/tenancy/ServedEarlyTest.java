package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServedEarlyTest {
  final Instant t0 = Instant.parse("2025-01-01T00:00:00Z");
  final PoolState synced = new PoolState("isolato-c-gold", 1, 1, true, "current table");
  final Tenant acme = Fixtures.tenant("acme", "gold", 10, TenantSpec.Isolation.shared);
  final Tenant beta = Fixtures.tenant("beta", "gold", 20, TenantSpec.Isolation.shared);
  final ServedEarly.Written written =
      new ServedEarly.Written(
          "gold",
          "shared",
          "v2",
          Map.of(
              "acme", new ServedEarly.Planned(1L, 8.0), "beta", new ServedEarly.Planned(1L, 20.0)));

  @Test
  void theWrittenSpecsNewTenantsAreServingWithThePlannedRateAsTheClassPassWouldWriteIt() {
    List<ServedEarly.Write> w = ServedEarly.writes(written, "v2", synced, List.of(acme), t0);
    assertThat(w).hasSize(1);
    TenantStatus s = w.get(0).status();
    assertThat(s.phase).isEqualTo("Serving");
    assertThat(s.admittedRps).isEqualTo(8.0);
    // the class pass, from the pool's status that follows, computes the same: no second write
    acme.setStatus(s);
    assertThat(TenantStatuses.same(s, TenantStatuses.of(acme, synced, 8.0, t0.plusSeconds(1))))
        .isTrue();
  }

  @Test
  void anotherTableVersionOrATableNotOnEveryPodWritesNothing() {
    assertThat(ServedEarly.writes(written, "v3", synced, List.of(acme), t0)).isEmpty();
    PoolState pending = new PoolState("isolato-c-gold", 1, 1, false, "pushed to 0/1");
    assertThat(ServedEarly.writes(written, "v2", pending, List.of(acme), t0)).isEmpty();
  }

  @Test
  void aSpecThePoolsStatusReportsAlreadyIsTheClassPasses() {
    SloPool pool = new SloPool();
    pool.getMetadata().setGeneration(3L);
    assertThat(ServedEarly.reported(pool)).as("no status yet").isFalse();
    pool.setStatus(new SloPoolStatus());
    pool.getStatus().observedGeneration = 2L;
    assertThat(ServedEarly.reported(pool)).as("the status of the spec before").isFalse();
    pool.getStatus().observedGeneration = 3L;
    assertThat(ServedEarly.reported(pool)).isTrue();
  }

  @Test
  void aBurstTheSpecDoesNotListYetIsLeftToTheClassPassAndADedicatedTenantIsNoneOfIt() {
    SloPool pool = new SloPool();
    pool.getMetadata().setName(PoolNames.sharedNamespace("gold"));
    pool.setSpec(new SloPoolSpec());
    pool.getSpec().sloClass = "gold";
    pool.getSpec().tenants = List.of("acme");
    Tenant own = Fixtures.tenant("solo", "gold", 5, TenantSpec.Isolation.dedicated);
    assertThat(ServedEarly.othersWaiting(pool, List.of(acme, own))).isFalse();
    assertThat(ServedEarly.othersWaiting(pool, List.of(acme, beta))).isTrue();
    beta.getMetadata().setDeletionTimestamp(t0.toString());
    assertThat(ServedEarly.othersWaiting(pool, List.of(acme, beta)))
        .as("a tenant on its way out waits for nothing")
        .isFalse();
  }

  @Test
  void aTenantChangedSinceDeletedUnplannedOrAlreadyServingIsLeftToTheClassPass() {
    Tenant changed = Fixtures.tenant("acme", "gold", 30, TenantSpec.Isolation.shared);
    changed.getMetadata().setGeneration(2L);
    Tenant deleted = Fixtures.tenant("beta", "gold", 20, TenantSpec.Isolation.shared);
    deleted.getMetadata().setDeletionTimestamp(t0.toString());
    Tenant unplanned = Fixtures.tenant("gamma", "gold", 5, TenantSpec.Isolation.shared);
    Tenant serving = Fixtures.tenant("beta", "gold", 20, TenantSpec.Isolation.shared);
    serving.setStatus(TenantStatuses.of(serving, synced, 20, t0));
    assertThat(
            ServedEarly.writes(
                written, "v2", synced, List.of(changed, deleted, unplanned, serving), t0))
        .isEmpty();
  }
}
