package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.tenancy.CalibrationStatusMapper;
import dev.isolato.tenancy.Fixtures;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassStatus;
import org.junit.jupiter.api.Test;

class RampReferenceTest {
  @Test
  void aRecalibrationAfterDriftRampsAroundTheCalibratedFigureNotTheLoweredLiveLimit() {
    // declared 165 req/s per pod; the loop lowered the effective figure to 51.4 (2026-11-28)
    SloClass c = Fixtures.sloClass("gold-check", 1, 1, 165);
    c.setStatus(new SloClassStatus());
    SloClassStatus.Capacity cap = new SloClassStatus.Capacity();
    cap.calibratedPerPodRps = 165.0;
    cap.effectivePerPodRps = 51.4;
    c.getStatus().capacity = cap;
    assertThat(CalibrationStatusMapper.perPodCutoff(c)).isEqualTo(51.4);

    assertThat(InContextCalibrations.rampReference(c)).isEqualTo(165);
    StepPlan ramp =
        StepPlan.of(InContextCalibrations.rampReference(c), java.time.Duration.ofSeconds(60));
    // the knee the pod really had (150 req/s) lies inside the ramp, as it did not around 51.4
    assertThat(ramp.rates().get(ramp.rates().size() - 1)).isGreaterThan(150);
    assertThat(StepPlan.of(51.4, java.time.Duration.ofSeconds(60)).rates()).allMatch(r -> r < 150);
  }
}
