package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isolato.slo.TenantProfiler.Behaviour;
import dev.isolato.slo.TenantProfiler.Policy;
import dev.isolato.slo.TenantProfiler.Profile;
import org.junit.jupiter.api.Test;

class TenantProfilerTest {
  private final TenantProfiler profiler = new TenantProfiler(new Policy(1.1, 0.25, 600));

  @Test
  void classifiesByTheOfferedRateAgainstTheCommitment() {
    assertThat(profiler.classify(20, 23.0, 3600L).behaviour()).isEqualTo(Behaviour.AGGRESSIVE);
    assertThat(profiler.classify(20, 22.0, 3600L).behaviour())
        .as("exactly 110%: within tolerance")
        .isEqualTo(Behaviour.ABIDING);
    assertThat(profiler.classify(20, 5.0, 3600L).behaviour())
        .as("exactly 25%")
        .isEqualTo(Behaviour.ABIDING);
    assertThat(profiler.classify(20, 4.9, 3600L).behaviour()).isEqualTo(Behaviour.PASSIVE);
    assertThat(profiler.classify(20, 0.0, 3600L).behaviour()).isEqualTo(Behaviour.PASSIVE);
    assertThat(profiler.classify(20, 19.0, 3600L).behaviour()).isEqualTo(Behaviour.ABIDING);
  }

  @Test
  void explainsItselfWithTheMeasuredShareOfTheCommitment() {
    Profile p = profiler.classify(20, 30.0, 3600L);

    assertThat(p.reason())
        .isEqualTo(
            "offered 30.00 rps over 600 s, 150% of its commitment 20.00 rps (aggressive above 110%)");
    assertThat(p.measuredRps()).isEqualTo(30.0);
    assertThat(profiler.classify(20, 1.0, 3600L).reason()).endsWith("(passive below 25%)");
  }

  @Test
  void unknownWithoutAMeasurementOrBeforeAFullWindow() {
    assertThat(profiler.classify(20, null, 3600L))
        .isEqualTo(new Profile(Behaviour.UNKNOWN, null, 20, "no rate measured for the tenant"));
    assertThat(profiler.classify(20, Double.NaN, 3600L).behaviour()).isEqualTo(Behaviour.UNKNOWN);
    Profile young = profiler.classify(20, 0.0, 599L);
    assertThat(young.behaviour())
        .as("a new tenant has not sent yet: not passive")
        .isEqualTo(Behaviour.UNKNOWN);
    assertThat(young.reason()).isEqualTo("served for less than the 600 s profiling window");
    assertThat(profiler.classify(20, 0.0, null).behaviour()).isEqualTo(Behaviour.UNKNOWN);
  }

  @Test
  void onlyPassiveTenantsOfAnOptedInClassAreCountedAtTheirMeasuredRate() {
    Profile passive = profiler.classify(20, 2.0, 3600L);
    Profile aggressive = profiler.classify(20, 40.0, 3600L);

    assertThat(TenantProfiler.demand("t", 20, passive, true))
        .isEqualTo(new TenantDemand("t", 20, 2.0));
    assertThat(TenantProfiler.demand("t", 20, passive, false)).isEqualTo(new TenantDemand("t", 20));
    assertThat(TenantProfiler.demand("t", 20, aggressive, true).sizedRps())
        .as("never above the commitment")
        .isEqualTo(20);
    assertThat(TenantProfiler.demand("t", 20, null, true)).isEqualTo(new TenantDemand("t", 20));
  }

  @Test
  void aPolicyOutOfRangeIsRefused() {
    assertThatThrownBy(() -> new Policy(0.9, 0.25, 600))
        .hasMessageContaining("aggressiveAbove must be >= 1");
    assertThatThrownBy(() -> new Policy(1.1, 1.0, 600))
        .hasMessageContaining("passiveBelow must be in [0, 1)");
    assertThatThrownBy(() -> new Policy(1.1, 0.25, 0))
        .hasMessageContaining("windowSeconds must be >= 1");
  }
}
