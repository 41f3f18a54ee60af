package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isolato.calibration.CalibrationRun;
import dev.isolato.calibration.FieldError;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SloEngineTest {
  private static final UslModel TRUTH = SyntheticRuns.modelWithCutoff(10, 7.5, 62, 0.7, 0);
  private final SloEngine engine = SloEngine.withDefaults();
  private final ClassTarget gold = new ClassTarget("gold", 95, 75);

  @Test
  void ingestGivesTheCutoffTheTrustedFitAndThePerPodUnit() {
    CalibrationRun run =
        SyntheticRuns.run("gold", TRUTH, 2, SyntheticRuns.rates(10, 160, 16), 0.01, new Random(1));

    CalibrationOutcome outcome = engine.ingest(run, gold);

    assertThat(outcome.cutoff().cutoffRps()).isEqualTo(120.0);
    assertThat(outcome.perPodCutoffRps()).isEqualTo(60.0);
    assertThat(outcome.fit().trusted()).isTrue();
    assertThat(outcome.fit().notes()).anyMatch(n -> n.startsWith("σ assumed 0"));
    assertThat(outcome.warnings()).isEmpty();
  }

  @Test
  void invalidInputIsRejectedWithEveryFieldError() {
    CalibrationRun run =
        SyntheticRuns.run("bronze", TRUTH, 1, SyntheticRuns.rates(10, 60, 6), 0, new Random(1));

    assertThatThrownBy(() -> engine.ingest(run, new ClassTarget("gold", 97, -1)))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e ->
                assertThat(e.errors())
                    .extracting(FieldError::toString)
                    .containsExactly(
                        "target.percentile: must be one of 50, 90, 95, 99, was 97.0",
                        "target.targetLatencyMs: must be > 0, was -1.0",
                        "sloClass: run is for class 'bronze' but the target is for class 'gold'"));
  }

  @Test
  void aRunThatNeverBreaksTheSloWarnsThatItsCutoffIsALowerBoundAndFallsBack() {
    CalibrationRun run =
        SyntheticRuns.run("gold", TRUTH, 1, SyntheticRuns.rates(2, 20, 10), 0.01, new Random(2));

    CalibrationOutcome outcome = engine.ingest(run, gold);
    CapacityPlan plan =
        engine.plan(
            new PlanRequest(
                    "gold",
                    95,
                    75,
                    1,
                    10,
                    outcome.perPodCutoffRps(),
                    List.of(new TenantDemand("a", 30)))
                .withModel(outcome.fit()));

    assertThat(outcome.cutoff().status()).isEqualTo(CutoffResult.NOT_REACHED);
    assertThat(outcome.warnings()).singleElement().asString().contains("lower bound");
    assertThat(plan.method()).isEqualTo(ModelCapacityPlanner.FALLBACK_METHOD);
  }

  @Test
  void simulateComparesThePlanWithTheLinearBaseline() {
    ModelFit fit =
        engine.fit(
            List.of(
                SyntheticRuns.run(
                    "gold",
                    withSigma(0.15),
                    1,
                    SyntheticRuns.rates(10, 75, 14),
                    0.01,
                    new Random(4)),
                SyntheticRuns.run(
                    "gold",
                    withSigma(0.15),
                    3,
                    SyntheticRuns.rates(20, 180, 17),
                    0.01,
                    new Random(5))),
            gold);
    PlanRequest request =
        new PlanRequest(
            "gold",
            95,
            75,
            1,
            20,
            60,
            List.of(new TenantDemand("a", 100), new TenantDemand("b", 140)),
            fit);

    SimulationResult sim = engine.simulate(request);

    assertThat(fit.sigmaFitted()).isTrue();
    assertThat(sim.totalCommittedRps()).isEqualTo(240.0);
    assertThat(sim.plan().method()).isEqualTo(ModelCapacityPlanner.METHOD);
    assertThat(sim.linearBaseline().replicas()).isEqualTo(4);
    assertThat(sim.plan().replicas()).isGreaterThan(sim.linearBaseline().replicas());
    assertThat(sim.predictedLatencyMs()).isLessThanOrEqualTo(75);
    assertThat(sim.linearPredictedLatencyMs()).isGreaterThan(75);
  }

  @Test
  void planRejectsBadRequestsByField() {
    PlanRequest bad =
        new PlanRequest(
            "gold", 95, 75, 3, 2, -1, List.of(new TenantDemand("a", 1), new TenantDemand("a", -2)));

    assertThatThrownBy(() -> engine.plan(bad))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e ->
                assertThat(e.errors())
                    .extracting(FieldError::field)
                    .containsExactly(
                        "maxReplicas",
                        "perPodCutoffRps",
                        "tenants[1].tenantId",
                        "tenants[1].committedRps"));
  }

  private static UslModel withSigma(double sigma) {
    return new UslModel(TRUTH.scaleMs(), TRUTH.alpha(), TRUTH.beta(), sigma);
  }
}
