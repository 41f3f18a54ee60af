package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import dev.isolato.slo.CutoffDetector;
import dev.isolato.slo.CutoffResult;
import dev.isolato.slo.DetectionPolicy;
import dev.isolato.slo.RatePoint;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KneeRefinementTest {
  private static final CutoffDetector DETECTOR = new CutoffDetector(DetectionPolicy.defaults());

  /** A ramp at these rates with these p95s (ms), target 20 ms, every request answered. */
  private static CutoffResult ramp(double[] rates, double[] p95) {
    List<RatePoint> points = new ArrayList<>();
    for (int i = 0; i < rates.length; i++) {
      points.add(new RatePoint(i, 1, rates[i], rates[i], 1862, 0, p95[i]));
    }
    return DETECTOR.detect(points, 95, 20);
  }

  /** The 10:14 httpbin ramp's shape: held at 400, over target from 500 on. */
  @Test
  @DocClaim("docs/calibration.md: apart, a second Job runs 3 steps evenly inside that bracket")
  void aBracketWiderThanTheResolutionIsSplitIntoQuarters() {
    CutoffResult r =
        ramp(
            new double[] {80, 160, 240, 320, 400, 500, 600},
            new double[] {1.5, 1.4, 1.4, 1.3, 1.4, 24, 55});
    KneeRefinement fine = KneeRefinement.of(r).orElseThrow();
    assertThat(fine.reference()).isEqualTo(400);
    assertThat(fine.failed()).isEqualTo(500);
    assertThat(fine.extending()).isFalse();
    assertThat(fine.rates())
        .as("the reference step at the held rate first, then the bracket's quarters")
        .containsExactly(400.0, 425.0, 450.0, 475.0);
  }

  @Test
  void aBracketWithinTheResolutionNeedsNoSecondPass() {
    CutoffResult r = ramp(new double[] {100, 200, 204, 206, 208}, new double[] {1, 2, 30, 31, 32});
    assertThat(r.cutoffRps()).isEqualTo(200);
    assertThat(KneeRefinement.of(r)).isEmpty(); // 204 is 2 % above 200
  }

  /** The 10:50 httpbin ramp's shape: held to its top, 600. */
  @Test
  @DocClaim("docs/calibration.md: steps above its top, each 12.5 % of it further")
  void aRampThatNeverFailedIsExtendedAboveItsTop() {
    KneeRefinement more =
        KneeRefinement.of(
                ramp(
                    new double[] {80, 160, 240, 320, 400, 500, 600},
                    new double[] {1.5, 1.4, 1.4, 1.3, 1.4, 1.4, 1.5}))
            .orElseThrow();
    assertThat(more.extending()).isTrue();
    assertThat(more.reference()).isEqualTo(600);
    assertThat(more.rates()).containsExactly(600.0, 675.0, 750.0, 825.0, 900.0);
  }

  @Test
  void whenTheLowestStepFailedThereIsNothingToRefine() {
    assertThat(KneeRefinement.of(ramp(new double[] {10, 20, 30}, new double[] {40, 50, 60})))
        .isEmpty();
  }

  @Test
  @DocClaim("docs/calibration.md: When the reference fails, the second pass is discarded")
  void aSecondPassWhoseReferenceFailedIsRefuted() {
    // the CI runs' shape: the ramp held 64 and failed at 80; this time 64 fails too
    List<RatePoint> again = new ArrayList<>();
    double[] rates = {64, 68, 72, 76};
    double[] p95 = {180, 900, 1400, 1900};
    for (int i = 0; i < rates.length; i++) {
      again.add(new RatePoint(7 + i, 1, rates[i], rates[i] * 0.8, 400, 0, p95[i]));
    }
    assertThat(KneeRefinement.refuted(DETECTOR.detect(again, 95, 50), 7))
        .hasValueSatisfying(why -> assertThat(why).contains("held 64 req/s failed", "p95"));
    assertThat(KneeRefinement.refuted(DETECTOR.detect(again.subList(1, 4), 95, 50), 7))
        .as("a reference step that did not complete")
        .hasValueSatisfying(why -> assertThat(why).contains("did not complete"));
  }

  @Test
  void aSecondPassWhoseReferenceHeldIsMerged() {
    List<RatePoint> again =
        List.of(new RatePoint(7, 1, 64, 64, 400, 0, 12), new RatePoint(8, 1, 68, 60, 400, 0, 900));
    assertThat(KneeRefinement.refuted(DETECTOR.detect(again, 95, 50), 7)).isEmpty();
  }

  @Test
  void finerStepsFromTheSecondPassMoveTheEnginesCutoffInsideTheBracket() {
    List<RatePoint> points = new ArrayList<>();
    double[] rates = {80, 160, 240, 320, 400, 500, 600};
    double[] p95 = {1.5, 1.4, 1.4, 1.3, 1.4, 24, 55};
    for (int i = 0; i < rates.length; i++) {
      points.add(new RatePoint(i, 1, rates[i], rates[i], 1862, 0, p95[i]));
    }
    // the second pass continues the indexes: 425 and 450 hold, 475 fails
    points.add(new RatePoint(7, 1, 425, 425, 1862, 0, 2.0));
    points.add(new RatePoint(8, 1, 450, 450, 1862, 0, 9.0));
    points.add(new RatePoint(9, 1, 475, 475, 1862, 0, 31.0));
    assertThat(DETECTOR.detect(points, 95, 20).cutoffRps()).isEqualTo(450);
  }
}
