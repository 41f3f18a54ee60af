package dev.isolato.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BottleneckTest {

  /**
   * A breakdown of {@code total} seconds where {@code step} has {@code share} and the rest is split
   * evenly over the S5/S6 steps (the paper does not publish the other shares).
   */
  static Breakdown withShare(double total, Step step, double share) {
    Map<Step, Double> m = new EnumMap<>(Step.class);
    Step[] rest = {
      Step.S5_SANDBOX, Step.S5_NETWORK, Step.S6_CREATE_CONTAINER, Step.S6_START_CONTAINER
    };
    for (Step s : rest) {
      m.put(s, total * (1 - share) / rest.length);
    }
    m.put(step, total * share);
    return Breakdown.of(m);
  }

  @Test
  void figure8Run1_createPodObjectIsThePrimaryBottleneck_section63() {
    // Figure 8: run 1 takes 80.9 s with T_cpo at 97 %; the baseline predicts 11.9 s with T_cpo at 1
    // %.
    Breakdown run1 = withShare(80.9, Step.S3_CREATE_POD_OBJECT, 0.97);
    Breakdown baseline = withShare(11.9, Step.S3_CREATE_POD_OBJECT, 0.01);
    Bottleneck b = Bottleneck.detect(run1, baseline).orElseThrow();
    assertThat(b.step()).contains(Step.S3_CREATE_POD_OBJECT);
    assertThat(b.measuredShare()).isCloseTo(0.97, within(1e-9));
    assertThat(b.predictedShare()).isCloseTo(0.01, within(1e-9));
    assertThat(b.gap()).isCloseTo(0.96, within(1e-9));
    // "a predicted deployment time reduction of 96%": (78.47 − 0.119) / 80.9 = 96.9 %.
    assertThat(b.potentialGain()).isBetween(0.96, 0.97);
  }

  @Test
  void figure8Run2_theOldBottleneckShrankTo6Percent() {
    // Run 2: 31.1 s, T_cpo down to 6 %; with the rest of the time elsewhere the primary
    // bottleneck moves off T_cpo when another step's gap is larger.
    Map<Step, Double> m = new EnumMap<>(Step.class);
    m.put(Step.S3_CREATE_POD_OBJECT, 31.1 * 0.06);
    m.put(Step.S4_WRITE, 31.1 * 0.70);
    m.put(Step.S6_START_CONTAINER, 31.1 * 0.24);
    Breakdown baseline = withShare(11.9, Step.S3_CREATE_POD_OBJECT, 0.01);
    Bottleneck b = Bottleneck.detect(Breakdown.of(m), baseline).orElseThrow();
    assertThat(b.step()).contains(Step.S4_WRITE);
  }

  @Test
  void theStagesStepsShareItsSecondsAsTheComponentsTimedThem() {
    // KWOK, 1600 pods, the scheduler's bucket at 50 QPS (docs/pipeline.md): S4 took 24.58 s of
    // 57.88; its queue, algorithm and bindings (with the bucket's wait) summed 24,729 / 1 / 25,153
    // s
    Bottleneck s4 =
        new Bottleneck(Stage.S4, Optional.empty(), 24.58, 7.2, 24.58 / 57.88, 0.07, 0, 0);
    // the model's 31.05 s for the run, 7.2 s of it in S4
    Breakdown predicted =
        Breakdown.of(
            Map.of(
                Step.S4_READ,
                3.0,
                Step.S4_SCHEDULE,
                1.2,
                Step.S4_WRITE,
                3.0,
                Step.S5_SANDBOX,
                23.85));
    List<Bottleneck> steps =
        Bottleneck.rankSteps(
            s4,
            Map.of(
                Step.S4_READ,
                24_729.0,
                Step.S4_SCHEDULE,
                1.0,
                Step.S4_WRITE,
                25_153.0,
                Step.S3_WRITE,
                9e9),
            predicted);
    assertThat(steps)
        .extracting(b -> b.step().orElseThrow())
        .containsExactly(Step.S4_WRITE, Step.S4_READ, Step.S4_SCHEDULE);
    Bottleneck top = steps.get(0);
    assertThat(top.measuredSeconds()).isCloseTo(24.58 * 25_153 / 49_883, within(1e-9));
    assertThat(top.measuredShare()).isCloseTo(top.measuredSeconds() / 57.88, within(1e-9));
    assertThat(top.predictedShare()).isCloseTo(3.0 / 31.05, within(1e-9));
    assertThat(steps.stream().mapToDouble(Bottleneck::measuredSeconds).sum())
        .isCloseTo(24.58, within(1e-9));
    // none of the stage's steps timed: nothing to rank
    assertThat(Bottleneck.rankSteps(s4, Map.of(Step.S3_WRITE, 1.0), predicted)).isEmpty();
  }

  @Test
  void nothingMeasuredNoBottleneck() {
    assertThat(Bottleneck.detect(Breakdown.of(Map.of()), withShare(1, Step.S2_READ, 0.5)))
        .isEmpty();
  }

  @Test
  void aStepFasterThanPredictedHasNoGain() {
    Breakdown measured = Breakdown.of(Map.of(Step.S2_READ, 2.0, Step.S5_SANDBOX, 1.0));
    Breakdown predicted = Breakdown.of(Map.of(Step.S2_READ, 3.0, Step.S5_SANDBOX, 3.0));
    Bottleneck b = Bottleneck.detect(measured, predicted).orElseThrow();
    assertThat(b.step()).contains(Step.S2_READ); // 67 % measured vs 50 % predicted
    assertThat(b.potentialGain()).isZero(); // but it already beats its best case in seconds
  }
}
