package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TenantPhaseTest {
  @Test
  void aTenantWithoutStatusOrWithAnUnknownPhaseIsPending() {
    Tenant t = Fixtures.tenant("a", "gold", 1, TenantSpec.Isolation.shared);
    assertThat(TenantPhase.of(t)).isEqualTo(TenantPhase.Pending);
    t.setStatus(new TenantStatus());
    t.getStatus().phase = "Whatever";
    assertThat(TenantPhase.of(t)).isEqualTo(TenantPhase.Pending);
  }

  @Test
  void theWrittenPhaseIsReadBackAndADeletedTenantIsTerminating() {
    Tenant t = Fixtures.tenant("a", "gold", 1, TenantSpec.Isolation.shared);
    t.setStatus(new TenantStatus());
    t.getStatus().phase = TenantPhase.Serving.name();
    assertThat(TenantPhase.of(t)).isEqualTo(TenantPhase.Serving);
    t.getMetadata().setDeletionTimestamp("2026-11-23T12:00:00Z");
    assertThat(TenantPhase.of(t)).isEqualTo(TenantPhase.Terminating);
  }
}
