package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A measured knee of a 200m pod (CFS quota) on the dev machine, as stored on 2026-11-22 in
 * docs/results/model-accuracy/replicas-{1,2,3}/acc{1,2,3}.json (git history; taken with the load
 * generator's faults of docs/results/README.md, which shift the knee but not its shape), p95 per
 * step. p95 is flat, then jumps 30× past about 50 rps per replica. Measured cut-offs (p95 <= 50
 * ms): 48 / 96 / 144 rps at 1 / 2 / 3 replicas.
 */
class KneeDataTest {
  private static final double TARGET_MS = 50;
  private static final double MEASURED_CUTOFF_3 = 144;

  /** offered rps, achieved rps, p95 ms per step. */
  private static final double[][] ONE_REPLICA = {
    {8, 8, 10.522},
    {16, 16, 9.075},
    {24, 24, 8.757},
    {32, 32, 8.756},
    {40, 40, 11.97},
    {48, 48, 19.293},
    {56, 56, 701.571},
    {64, 59.2, 678.263},
    {72, 52.1, 880.351},
    {80, 43.7, 1274.896}
  };

  private static final double[][] TWO_REPLICAS = {
    {16, 16, 11.874},
    {32, 32, 9.603},
    {48, 48, 8.469},
    {64, 64, 7.998},
    {80, 80, 7.659},
    {96, 96, 7.7},
    {112, 107.2, 762.104},
    {128, 106.7, 793.095},
    {144, 99.8, 895.309},
    {160, 86.4, 1252.809}
  };

  private static List<RatePoint> points(int replicas, double[][] steps) {
    List<RatePoint> points = new ArrayList<>();
    for (int i = 0; i < steps.length; i++) {
      points.add(
          new RatePoint(i, replicas, steps[i][0], steps[i][1], 100L * replicas, 0, steps[i][2]));
    }
    return points;
  }

  private static List<RatePoint> oneAndTwo() {
    List<RatePoint> points = new ArrayList<>(points(1, ONE_REPLICA));
    points.addAll(points(2, TWO_REPLICAS));
    return points;
  }

  @Test
  void theQueueFormFitsTheKneeAndPredictsTheThreeReplicaCutoffWithin15Percent() {
    ModelFit fit =
        new BestFit(FitPolicy.defaults(), DetectionPolicy.defaults()).fit(oneAndTwo(), 95);

    assertThat(fit.form()).isEqualTo(QueueModel.FORM);
    assertThat(fit.reasons()).isEmpty();
    assertThat(fit.trusted()).isTrue();
    assertThat(fit.sigmaFitted()).isTrue();
    assertThat(fit.rSquared()).isGreaterThan(0.9);
    double predicted = fit.model().cutoffRps(TARGET_MS, 3);
    assertThat(predicted).isCloseTo(MEASURED_CUTOFF_3, within(0.15 * MEASURED_CUTOFF_3));
    assertThat(fit.model().replicasFor(MEASURED_CUTOFF_3, TARGET_MS)).hasValue(3);
    assertThat(fit.notes()).anyMatch(n -> n.startsWith("usl form not chosen: refused"));
  }

  @Test
  void theUslFormIsRefusedOnTheKnee() {
    ModelFit usl =
        new UslFitter(FitPolicy.defaults(), DetectionPolicy.defaults()).fit(oneAndTwo(), 95);

    assertThat(usl.trusted()).isFalse();
    assertThat(usl.form()).isEqualTo(UslModel.FORM);
  }

  @Test
  void theQueueFitPutsTheCapacityBetweenTheLastFlatAndTheFirstCollapsedStep() {
    ModelFit fit =
        new QueueFitter(FitPolicy.defaults(), DetectionPolicy.defaults())
            .fit(points(1, ONE_REPLICA), 95);

    QueueModel model = (QueueModel) fit.model();
    assertThat(model.capacityRps()).isBetween(48.0, 56.0);
    assertThat(model.latencyMs(56, 1)).isInfinite();
    assertThat(fit.residuals()).allSatisfy(r -> assertThat(r.predictedMs()).isFinite());
  }
}
