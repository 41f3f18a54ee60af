package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PoolsTest {
  @Test
  void sharedTenantsShareOnePoolAndDedicatedOnesGetTheirOwn() {
    var a = Fixtures.tenant("b-shared", "gold", 1, TenantSpec.Isolation.shared);
    var b = Fixtures.tenant("a-shared", "gold", 1, TenantSpec.Isolation.shared);
    var c = Fixtures.tenant("vip", "gold", 1, TenantSpec.Isolation.dedicated);
    List<Pool> pools = Pools.of("gold", List.of(a, c, b));
    assertThat(pools).hasSize(2);
    assertThat(pools.get(0).namespace()).isEqualTo("isolato-c-gold");
    assertThat(pools.get(0).tenants())
        .extracting(t -> t.getMetadata().getName())
        .containsExactly("a-shared", "b-shared");
    assertThat(pools.get(1).namespace()).isEqualTo("isolato-t-vip");
    assertThat(pools.get(1).dedicatedTenant()).isEqualTo("vip");
  }

  @Test
  void tenantsBeingDeletedLeaveEveryPool() {
    var a = Fixtures.tenant("gone", "gold", 1, TenantSpec.Isolation.shared);
    a.getMetadata().setDeletionTimestamp("2025-01-01T00:00:00Z");
    var d = Fixtures.tenant("vip", "gold", 1, TenantSpec.Isolation.dedicated);
    d.getMetadata().setDeletionTimestamp("2025-01-01T00:00:00Z");
    List<Pool> pools = Pools.of("gold", List.of(a, d));
    assertThat(pools).singleElement().satisfies(p -> assertThat(p.tenants()).isEmpty());
  }
}
