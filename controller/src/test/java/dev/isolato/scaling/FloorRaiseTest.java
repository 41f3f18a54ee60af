package dev.isolato.scaling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.tenancy.Fixtures;
import dev.isolato.tenancy.SloClass;
import org.junit.jupiter.api.Test;

class FloorRaiseTest {
  @Test
  void raisesToThePodsTheOfferedRateNeedsAtOnce() {
    // 2.5 × one pod's threshold on one pod: three pods
    assertThat(FloorRaise.decide(25, 10, 1, 4)).hasValue(3);
  }

  @Test
  void neverLowersNorPassesTheMaximum() {
    assertThat(FloorRaise.decide(5, 10, 3, 4)).isEmpty();
    assertThat(FloorRaise.decide(30, 10, 3, 4)).isEmpty();
    assertThat(FloorRaise.decide(100, 10, 2, 4)).hasValue(4);
    assertThat(FloorRaise.decide(100, 10, 4, 4)).isEmpty();
  }

  @Test
  void exactlyAtTheThresholdNeedsNoMorePods() {
    assertThat(FloorRaise.decide(20, 10, 2, 4)).isEmpty();
    assertThat(FloorRaise.decide(20.5, 10, 2, 4)).hasValue(3);
  }

  @Test
  void oneReadingOverTheThresholdRaisesNothingTwoInARowRaiseToTheLowersNeed() {
    // the steady run's readings: 106 req/s offered, one scrape read 119.7 over 118.8 per pod
    double threshold = 118.8;
    double[] readings = {105.9, 119.7, 104.2, 106.3};
    double previous = Double.NaN;
    for (double r : readings) {
      assertThat(FloorRaise.decide(FloorRaise.confirmed(previous, r), threshold, 1, 3)).isEmpty();
      previous = r;
    }
    // a real rise holds: 250 then 300 need ceil(250 / 118.8) = 3 pods, not the first reading's
    assertThat(FloorRaise.decide(FloorRaise.confirmed(Double.NaN, 250), threshold, 1, 3)).isEmpty();
    assertThat(FloorRaise.decide(FloorRaise.confirmed(106, 250), threshold, 1, 3)).isEmpty();
    assertThat(FloorRaise.decide(FloorRaise.confirmed(250, 200), threshold, 1, 3)).hasValue(2);
    assertThat(FloorRaise.decide(FloorRaise.confirmed(250, 300), threshold, 1, 3)).hasValue(3);
  }

  @Test
  void anUnknownRateDecidesNothing() {
    assertThat(FloorRaise.decide(Double.NaN, 10, 1, 4)).isEmpty();
  }

  @Test
  void theThresholdIsTheCutoffTimesThePivot() {
    SloClass c = Fixtures.sloClass("gold", 1, 4, 40);
    assertThat(ScaleThreshold.perPodRps(c)).isEqualTo(26.0);
    assertThat(ScaleThreshold.podsFor(0, 26, 4)).isEqualTo(1);
  }
}
