package dev.isolato.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.slo.ContextStability;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClassVerdictTest {
  static final VerificationPolicy P = VerificationPolicy.defaults();

  static Verdict verdict(boolean held, double effective, LiveEstimate live) {
    return new Verdict(
        held,
        Instant.EPOCH,
        new LiveWindow(Instant.EPOCH, 1, 100, held ? 20 : 500),
        live,
        effective,
        null,
        List.of());
  }

  @Test
  void theFailingPoolSpeaksAndTheStabilityAnalysisJudgesItsLiveCutoff() {
    LiveEstimate live = new LiveEstimate(73.5, 31.5, LiveEstimate.SATURATION, 3, 105.0);
    Verdict failing = verdict(false, 73.5, live);
    ClassVerdict v =
        ClassVerdict.of("gold", List.of(verdict(true, 165, null), failing), 165, "alone", P);
    assertThat(v.pool()).isSameAs(failing);
    ContextStability s = v.stability().orElseThrow();
    assertThat(s.label()).isEqualTo("live");
    assertThat(s.deviationPct()).isCloseTo(-55.5, org.assertj.core.data.Offset.offset(0.1));
    assertThat(s.unstable()).isTrue();
    assertThat(s.reasons().get(0)).contains("from alone 165.0 rps");
  }

  @Test
  void aLowerBoundBelowTheCalibrationSaysNothing() {
    LiveEstimate bound = new LiveEstimate(40, 0, LiveEstimate.HOLDING, 5, null);
    assertThat(
            ClassVerdict.of("gold", List.of(verdict(true, 165, bound)), 165, "alone", P)
                .stability())
        .isEmpty();
    LiveEstimate above = new LiveEstimate(200, 0, LiveEstimate.HOLDING, 5, null);
    assertThat(
            ClassVerdict.of("gold", List.of(verdict(true, 165, above)), 165, "alone", P)
                .stability()
                .orElseThrow()
                .unstable())
        .isTrue();
  }
}
