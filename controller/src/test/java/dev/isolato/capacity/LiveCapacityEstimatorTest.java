package dev.isolato.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiveCapacityEstimatorTest {
  final LiveCapacityEstimator estimator = new LiveCapacityEstimator(VerificationPolicy.defaults());

  static LiveWindow w(double perPod, double p95) {
    return new LiveWindow(Instant.EPOCH, 1, perPod, p95);
  }

  @Test
  void noWindowNoEstimate() {
    assertThat(estimator.estimate(List.of(w(0, Double.NaN)), 95, 50)).isEmpty();
  }

  @Test
  void heldEverywhereIsOnlyALowerBound() {
    LiveEstimate e = estimator.estimate(List.of(w(40, 10), w(70, 20)), 95, 50).orElseThrow();
    assertThat(e.basis()).isEqualTo(LiveEstimate.HOLDING);
    assertThat(e.perPodRps()).isEqualTo(70);
    assertThat(e.bounded()).isFalse();
  }

  @Test
  void bracketRestsOnTheHighestRateThatHeldBelowTheFailures() {
    LiveEstimate e =
        estimator
            .estimate(List.of(w(60, 20), w(80, 40), w(95, 120), w(100, 300), w(120, 30)), 95, 50)
            .orElseThrow();
    assertThat(e.basis()).isEqualTo(LiveEstimate.BRACKET);
    // 120 held once but lies above the failures: a bound below them counts, not above
    assertThat(e.perPodRps()).isEqualTo(80);
    assertThat(e.lowestFailingRps()).isEqualTo(100);
    assertThat(e.errorRps()).isEqualTo(10);
  }

  /**
   * A new pod's first point held at 16.6 req/s while the pods failed at 84 (the localkube drift
   * run): resting on it would say less than no holding point at all; the saturation share of the
   * failing rate is the floor.
   */
  @Test
  void aHoldingPointFarBelowTheFailuresDoesNotDragTheEstimateDown() {
    LiveEstimate e =
        estimator
            .estimate(List.of(w(16.6, 5), w(84.2, 900), w(88, 1200), w(90, 1500)), 95, 50)
            .orElseThrow();
    assertThat(e.basis()).isEqualTo(LiveEstimate.SATURATION);
    assertThat(e.perPodRps()).isCloseTo(0.7 * 88, offset(1e-9));
    assertThat(e.lowestFailingRps()).isEqualTo(88);
  }

  /**
   * Windows along a queue's curve (s = 5 ms, k = 5 ms, μ = 110 req/s: the target of 50 ms is
   * reached at ρ = 9/10 → 99 req/s) cover the curve: the model is refitted with the calibration's
   * fitters and its cut-off is used, capped below the failing windows.
   */
  @Test
  void refitsTheModelWhenTheWindowsCoverTheCurve() {
    List<LiveWindow> windows = new ArrayList<>();
    for (double r = 20; r <= 106; r += 6) {
      double rho = r / 110;
      windows.add(w(r, 5 + 5 * rho / (1 - rho)));
    }
    LiveEstimate e = estimator.estimate(windows, 95, 50).orElseThrow();
    assertThat(e.basis()).isEqualTo(LiveEstimate.REFIT);
    assertThat(e.perPodRps()).isCloseTo(99, offset(3.0));
    assertThat(e.perPodRps()).isLessThanOrEqualTo(e.lowestFailingRps());
  }
}
