package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AutoStartTest {
  static final Instant NOW = Instant.parse("2026-11-27T18:00:00Z");
  static final Duration RETRY = Duration.ofMinutes(15);

  @Test
  void aClassWithNoCalibrationStartsOnceItsPoolIsReady() {
    assertThat(
            new AutoStart(false, true, false, null, null, 200, null, null, null).reason(NOW, RETRY))
        .contains("the class has no calibration");
    assertThat(
            new AutoStart(false, false, false, null, null, 200, null, null, null)
                .reason(NOW, RETRY))
        .isEmpty();
    assertThat(
            new AutoStart(false, true, true, null, null, 200, null, null, null).reason(NOW, RETRY))
        .isEmpty();
  }

  @Test
  void aFailedAttemptIsRetriedOnlyAfterTheRetryDelay() {
    Instant last = NOW.minus(Duration.ofMinutes(5));
    assertThat(
            new AutoStart(false, true, false, last, null, 200, null, null, null).reason(NOW, RETRY))
        .isEmpty();
    assertThat(
            new AutoStart(false, true, false, last, null, 200, null, null, null)
                .reason(NOW.plus(Duration.ofMinutes(11)), RETRY))
        .contains("the class has no calibration");
  }

  @Test
  void aNewPodSizeStartsOne() {
    Instant last = NOW.minus(Duration.ofHours(1));
    assertThat(
            new AutoStart(true, true, false, last, 200L, 400, null, null, null).reason(NOW, RETRY))
        .contains("pod size changed from 200m to 400m");
    assertThat(
            new AutoStart(true, true, false, last, 200L, 200, null, null, null).reason(NOW, RETRY))
        .isEmpty();
  }

  @Test
  void driftAfterTheLastCalibrationStartsOneAndDriftBeforeItDoesNot() {
    Instant last = NOW.minus(Duration.ofHours(1));
    assertThat(
            new AutoStart(true, true, false, last, 200L, 200, NOW.minusSeconds(60), null, null)
                .reason(NOW, RETRY))
        .hasValueSatisfying(r -> assertThat(r).startsWith("live capacity below"));
    assertThat(
            new AutoStart(true, true, false, last, 200L, 200, last.minusSeconds(1), null, null)
                .reason(NOW, RETRY))
        .isEmpty();
  }

  @Test
  @DocClaim(
      "docs/calibration.md: when the context began after the last attempt and not within the retry delay")
  void aContextWithNoFigureStartsOneWhenItBeganAfterTheLastAttempt() {
    Instant last = NOW.minus(Duration.ofHours(1));
    String why = "no cut-off measured where the pool runs (in-context:Xeon+bronze)";
    assertThat(
            new AutoStart(true, true, false, last, 200L, 200, null, why, NOW.minusSeconds(60))
                .reason(NOW, RETRY))
        .contains("context changed: " + why);
    assertThat(
            new AutoStart(true, true, false, last, 200L, 200, null, why, last.minusSeconds(60))
                .reason(NOW, RETRY))
        .as("the context was already there at the last attempt (it failed or measured elsewhere)")
        .isEmpty();
    assertThat(
            new AutoStart(true, true, false, NOW.minusSeconds(120), 200L, 200, null, why, NOW)
                .reason(NOW, RETRY))
        .as("within the retry delay")
        .isEmpty();
  }
}
