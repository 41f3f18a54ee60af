package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.slo.AdmissionLimit;
import dev.isolato.slo.TenantDemand;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Admission reads the limit off the planner's own request for the class. */
class AdmissionLimitTest {
  @Test
  void declaredCutoffUntilCalibrated() {
    SloClass gold = Fixtures.sloClass("gold", 1, 4, 25);
    AdmissionLimit limit =
        AdmissionLimit.of(ClassPlans.request(gold, List.of(new TenantDemand("a", 70))));
    assertThat(limit.ceilingRps()).isEqualTo(100);
    assertThat(limit.remainingRps()).isEqualTo(30);
    assertThat(limit.admits(30)).isTrue();
    assertThat(limit.admits(30.001)).isFalse();
  }

  @Test
  void measuredCutoffReplacesTheDeclaredOneOnceCalibrated() {
    SloClass gold = Fixtures.sloClass("gold", 1, 4, 25);
    gold.setStatus(new SloClassStatus());
    gold.getStatus().perPodCutoffRps = 10.0;
    AdmissionLimit limit =
        AdmissionLimit.of(ClassPlans.request(gold, List.of(new TenantDemand("a", 35))));
    assertThat(limit.ceilingRps()).as("4 pods × measured 10 req/s").isEqualTo(40);
    assertThat(limit.admits(5)).isTrue();
    assertThat(limit.admits(6)).as("fits the declared 100, not the measured 40").isFalse();
  }

  @Test
  void nothingRemainsWhenOthersAlreadyExceedTheCeiling() {
    SloClass gold = Fixtures.sloClass("gold", 1, 2, 10);
    AdmissionLimit limit =
        AdmissionLimit.of(ClassPlans.request(gold, List.of(new TenantDemand("a", 30))));
    assertThat(limit.remainingRps()).isZero();
    assertThat(limit.admits(0.001)).isFalse();
  }
}
