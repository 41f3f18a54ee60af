package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class VerticalHeadroomTest {
  @Test
  void withoutHeadroomRequestsEqualLimitsAndNoFillerRuns() {
    VerticalHeadroom none = VerticalHeadroom.NONE;
    assertThat(none.podLimitMillis(500)).isEqualTo(500);
    assertThat(none.runsFiller()).isFalse();
    assertThat(none.quotaPods(5)).isEqualTo(5);
    assertThat(none.quotaRequestsMillis(500, 5)).isEqualTo(2500);
    assertThat(none.quotaLimitsMillis(500, 5)).isEqualTo(2500);
  }

  @Test
  void headroomRaisesEachPodsLimitAndTheFillerSoaksUpToIt() {
    VerticalHeadroom h = new VerticalHeadroom(150, true);
    assertThat(h.podLimitMillis(950)).isEqualTo(1100);
    assertThat(h.fillerLimitMillis()).isEqualTo(150);
    assertThat(h.runsFiller()).isTrue();
  }

  @Test
  void theQuotaAdmitsTheClassPodsAtTheirLimitsAndTheFiller() {
    VerticalHeadroom h = new VerticalHeadroom(200, true);
    // 5 class pods of 400m (limit 600m) and one filler of 10m (limit 200m)
    assertThat(h.quotaPods(5)).isEqualTo(6);
    assertThat(h.quotaRequestsMillis(400, 5))
        .isEqualTo(2000 + VerticalHeadroom.FILLER_REQUEST_MILLIS);
    assertThat(h.quotaLimitsMillis(400, 5)).isEqualTo(3000 + 200);
  }

  @Test
  void headroomWithoutFillerCountsNoFillerPod() {
    VerticalHeadroom h = new VerticalHeadroom(200, false);
    assertThat(h.runsFiller()).isFalse();
    assertThat(h.quotaPods(5)).isEqualTo(5);
    assertThat(h.quotaRequestsMillis(400, 5)).isEqualTo(2000);
    assertThat(h.quotaLimitsMillis(400, 5)).isEqualTo(3000);
  }

  @Test
  void aFillerWithoutHeadroomHasNothingToSoakAndDoesNotRun() {
    assertThat(new VerticalHeadroom(0, true).runsFiller()).isFalse();
  }

  @Test
  void underContentionTheFillerKeepsOnlyItsShareOfTheRequests() {
    // one 250m class pod: 10 shares against 250 → under 4 % of a contended CPU
    assertThat(VerticalHeadroom.contendedFillerShare(250)).isCloseTo(10.0 / 260, within(1e-12));
    assertThat(VerticalHeadroom.contendedFillerShare(0)).isEqualTo(1.0);
  }

  @Test
  void negativeAmountsAreRefused() {
    assertThatThrownBy(() -> new VerticalHeadroom(-1, true)).hasMessageContaining("-1m");
    assertThatThrownBy(() -> VerticalHeadroom.contendedFillerShare(-5)).hasMessageContaining("-5m");
  }
}
