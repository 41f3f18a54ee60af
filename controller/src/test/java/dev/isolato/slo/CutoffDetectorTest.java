package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class CutoffDetectorTest {
  private static final double TARGET = 75;
  private final CutoffDetector detector = new CutoffDetector(DetectionPolicy.defaults());

  @Test
  void cutoffIsTheHighestPassingStepBeforeAPersistingViolation() {
    CutoffResult r = detect(latencies(40, 50, 60, 70, 80, 90), 10, 20, 30, 40, 50, 60);

    assertThat(r.status()).isEqualTo(CutoffResult.FOUND);
    assertThat(r.cutoffRps()).isEqualTo(40.0);
    assertThat(r.cutoffStepIndex()).isEqualTo(3);
    assertThat(r.violationStepIndex()).isEqualTo(4);
    assertThat(r.steps())
        .extracting(StepVerdict::role)
        .containsExactly("pass", "pass", "pass", "pass", "violation", "beyond");
    assertThat(r.evidence().get(0))
        .contains("cut-off 40.0 rps at step 3")
        .contains("p95 <= 75.0 ms");
    assertThat(r.evidence().get(1)).contains("step 4 at 50.0 rps").contains("confirmed by step 5");
  }

  @Test
  void anIsolatedSpikeRefutedByTwoPassingStepsIsNoise() {
    CutoffResult r = detect(latencies(40, 90, 50, 60, 80, 85), 10, 20, 30, 40, 50, 60);

    assertThat(r.cutoffRps()).isEqualTo(40.0);
    assertThat(r.steps().get(1).role()).isEqualTo(StepVerdict.NOISE);
    assertThat(r.evidence()).anyMatch(e -> e.contains("step 1 at 20.0 rps ignored as noise"));
  }

  @Test
  void aLonePassAboveAViolationDoesNotRaiseTheCutoff() {
    CutoffResult r = detect(latencies(40, 50, 80, 70, 90, 95), 10, 20, 30, 40, 50, 60);

    assertThat(r.cutoffRps()).isEqualTo(20.0);
    assertThat(r.evidence().get(1)).contains("confirmed by step 4");
  }

  @Test
  void errorsAndSaturationFailAStepLikeLatencyDoes() {
    List<RatePoint> points = new ArrayList<>();
    points.add(new RatePoint(0, 1, 10, 10, 1000, 0, 20));
    points.add(new RatePoint(1, 1, 20, 20, 1000, 50, 20)); // 5% errors
    points.add(new RatePoint(2, 1, 30, 25, 1000, 0, 20)); // achieved 83%
    CutoffResult r = detector.detect(points, 95, TARGET);

    assertThat(r.cutoffRps()).isEqualTo(10.0);
    assertThat(r.steps().get(1).reasons()).containsExactly("error rate 5.00% > 1.00%");
    assertThat(r.steps().get(2).reasons())
        .singleElement()
        .asString()
        .startsWith("achieved 25.0 of 30.0 rps");
  }

  @Test
  void reportsALowerBoundWhenTheSloNeverBreaksAndNoneWhenItAlwaysDoes() {
    CutoffResult never = detect(latencies(10, 20, 30), 10, 20, 30);
    CutoffResult always = detect(latencies(80, 90, 100), 10, 20, 30);

    assertThat(never.status()).isEqualTo(CutoffResult.NOT_REACHED);
    assertThat(never.cutoffRps()).isEqualTo(30.0);
    assertThat(always.status()).isEqualTo(CutoffResult.NONE);
    assertThat(always.cutoffRps()).isNull();
    assertThat(always.violationStepIndex()).isZero();
  }

  @Test
  void stepsAreJudgedInOfferedRateOrderWhateverTheirListOrder() {
    List<RatePoint> points =
        new ArrayList<>(points(latencies(40, 50, 60, 80, 90), 10, 20, 30, 40, 50));
    java.util.Collections.reverse(points);

    assertThat(detector.detect(points, 95, TARGET).cutoffRps()).isEqualTo(30.0);
  }

  /**
   * With one noisy step on a monotone curve whose last passing step is c, the cut-off is unchanged
   * unless the noise hits c−1, c or c+1, and then moves at most 2 steps down or 1 up.
   */
  @Property(tries = 500)
  void aSingleNoisyStepMovesTheCutoffOnlyNearTheBoundaryAndBoundedly(
      @ForAll @IntRange(min = 4, max = 40) int steps,
      @ForAll @DoubleRange(min = 0.1, max = 0.9) double boundaryFraction,
      @ForAll @IntRange(min = 0, max = 39) int noisyStep) {
    Assume.that(noisyStep < steps);
    int lastPass = Math.max(0, Math.min(steps - 2, (int) (boundaryFraction * steps)));
    double[] rates = new double[steps];
    double[] latency = new double[steps];
    for (int i = 0; i < steps; i++) {
      rates[i] = 5.0 * (i + 1);
      latency[i] = i <= lastPass ? TARGET * (0.3 + 0.6 * i / steps) : TARGET * (1.1 + i);
    }
    latency[noisyStep] = latency[noisyStep] <= TARGET ? 3 * TARGET : 0.5 * TARGET;

    CutoffResult r = detect(latency, rates);

    int got = r.cutoffStepIndex() == null ? -1 : r.cutoffStepIndex();
    int shift = got - lastPass;
    if (Math.abs(noisyStep - lastPass) <= 1) {
      assertThat(shift).isBetween(-2, 1);
    } else {
      assertThat(shift).as("noise at %d, boundary at %d", noisyStep, lastPass).isZero();
    }
  }

  /** Without noise the detector finds exactly the boundary of a monotone curve. */
  @Property(tries = 300)
  void findsTheExactBoundaryOfANoiseFreeMonotoneCurve(
      @ForAll @IntRange(min = 2, max = 50) int steps,
      @ForAll @IntRange(min = 0, max = 49) int lastPass) {
    Assume.that(lastPass < steps);
    double[] rates = new double[steps];
    double[] latency = new double[steps];
    for (int i = 0; i < steps; i++) {
      rates[i] = 10.0 * (i + 1);
      latency[i] = i <= lastPass ? TARGET * 0.9 : TARGET * 1.2;
    }
    CutoffResult r = detect(latency, rates);

    assertThat(r.cutoffStepIndex()).isEqualTo(lastPass);
    assertThat(r.status())
        .isEqualTo(lastPass == steps - 1 ? CutoffResult.NOT_REACHED : CutoffResult.FOUND);
  }

  private CutoffResult detect(double[] latency, double... rates) {
    return detector.detect(points(latency, rates), 95, TARGET);
  }

  private static List<RatePoint> points(double[] latency, double... rates) {
    List<RatePoint> points = new ArrayList<>();
    for (int i = 0; i < rates.length; i++) {
      points.add(RatePoint.of(SyntheticRuns.step(i, rates[i], latency[i]), 1, 95));
    }
    return points;
  }

  private static double[] latencies(double... ms) {
    return ms;
  }

  @Test
  void theLatencyMarginIsANumberEvenForAnAbsurdLatency() {
    assertThat(CutoffDetector.marginPct(60, 50)).isEqualTo(20.0);
    assertThat(CutoffDetector.marginPct(40, 50)).isEqualTo(-20.0);
    // found by FuzzIT: a finite p95 of 1.3e307 ms over a 50 ms target answered "Infinity"
    assertThat(CutoffDetector.marginPct(1.3e307, 50)).isFinite().isGreaterThan(1e307);
    assertThat(CutoffDetector.marginPct(Double.MAX_VALUE, 0.001)).isEqualTo(Double.MAX_VALUE);
  }
}
