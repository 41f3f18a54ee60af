package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TenantStatusesTest {
  final Instant t0 = Instant.parse("2025-01-01T00:00:00Z");
  final Instant t1 = Instant.parse("2025-01-01T00:00:05Z");
  final Tenant acme = Fixtures.tenant("acme", "gold", 10, TenantSpec.Isolation.shared);

  static Condition cond(TenantStatus s, String type) {
    return s.conditions.stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
  }

  @Test
  void withoutReadyPodsTheTenantIsProvisioningAndSaysWhy() {
    TenantStatus s =
        TenantStatuses.of(
            acme, new PoolState("isolato-c-gold", 2, 0, false, "no ready pod"), 10, t0);
    assertThat(s.phase).isEqualTo("Provisioning");
    assertThat(cond(s, "Ready").getReason()).isEqualTo("NoReadyReplicas");
    assertThat(cond(s, "PodsReady").getMessage()).isEqualTo("0/2 replicas ready");
    assertThat(s.servingSince).isNull();
  }

  @Test
  void readyPodsWithoutTheTableArePushPending() {
    TenantStatus s =
        TenantStatuses.of(
            acme, new PoolState("isolato-c-gold", 1, 1, false, "pushed to 0/1"), 10, t0);
    assertThat(s.phase).isEqualTo("Provisioning");
    assertThat(cond(s, "Ready").getReason()).isEqualTo("PushPending");
  }

  @Test
  void servingKeepsItsSinceAndTransitionTimesSoAnUnchangedWorldNeedsNoWrite() {
    PoolState ok = new PoolState("isolato-c-gold", 1, 1, true, "table v1");
    TenantStatus first = TenantStatuses.of(acme, ok, 10, t0);
    assertThat(first.phase).isEqualTo("Serving");
    assertThat(first.servingSince).isEqualTo(t0.toString());
    acme.setStatus(first);
    TenantStatus again = TenantStatuses.of(acme, ok, 10, t1);
    assertThat(again.servingSince).isEqualTo(t0.toString());
    assertThat(TenantStatuses.same(first, again)).isTrue();
  }

  @Test
  void aConditionThatFlipsGetsANewTransitionTime() {
    acme.setStatus(TenantStatuses.of(acme, new PoolState("ns", 1, 0, false, "x"), 10, t0));
    TenantStatus later = TenantStatuses.of(acme, new PoolState("ns", 1, 1, true, "y"), 10, t1);
    assertThat(cond(later, "Ready").getLastTransitionTime()).isEqualTo(t1.toString());
    assertThat(cond(later, "Provisioned").getLastTransitionTime()).isEqualTo(t0.toString());
  }
}
