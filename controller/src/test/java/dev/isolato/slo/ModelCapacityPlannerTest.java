package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ModelCapacityPlannerTest {
  private static final UslModel MODEL = SyntheticRuns.modelWithCutoff(10, 7.5, 60, 0.7, 0.1);
  private final ModelCapacityPlanner planner = new ModelCapacityPlanner(new PlanPolicy(0.2, 1.5));

  @Test
  void withoutAModelItFallsBackToTheLinearBaselineAndSaysSo() {
    PlanRequest request =
        new PlanRequest("gold", 95, 75, 1, 10, 50, List.of(new TenantDemand("a", 120)));

    CapacityPlan plan = planner.plan(request);
    CapacityPlan linear = new LinearCapacityPlanner().plan(request);

    assertThat(plan.method()).isEqualTo(ModelCapacityPlanner.FALLBACK_METHOD);
    assertThat(plan.replicas()).isEqualTo(linear.replicas()).isEqualTo(3);
    assertThat(plan.explanation().get(0))
        .isEqualTo("fallback to the linear baseline: no fitted model for class gold");
    assertThat(plan.explanation().subList(1, plan.explanation().size()))
        .isEqualTo(linear.explanation());
  }

  @Test
  void refusedMismatchedOrExtrapolatingModelsAreNotUsed() {
    PlanRequest base = request(List.of(new TenantDemand("a", 100)));
    ModelFit refused =
        new ModelFit(
            ModelFit.REFUSED,
            UslModel.FORM,
            MODEL,
            95,
            3,
            0,
            false,
            0.5,
            9,
            70,
            List.of(),
            List.of("poor fit: R² 0.500 < 0.900 (RMSE 9.00 ms)"),
            List.of());
    ModelFit p99 = trusted(MODEL, 99, 70);
    ModelFit narrow = trusted(MODEL, 95, 30); // measured up to 30 rps per replica, cut-off is 60

    assertThat(planner.plan(base.withModel(refused)).explanation().get(0))
        .isEqualTo(
            "fallback to the linear baseline: the fitted model was refused; poor fit: R² 0.500 < 0.900 (RMSE 9.00 ms)");
    assertThat(planner.plan(base.withModel(p99)).explanation().get(0))
        .contains("predicts p99 but the class targets p95");
    assertThat(planner.plan(base.withModel(narrow)).explanation().get(0))
        .contains("extrapolates beyond 1.5 × the highest measured load 30.0 rps");
    assertThat(planner.plan(base.withModel(narrow)).method())
        .isEqualTo(ModelCapacityPlanner.FALLBACK_METHOD);
  }

  @Test
  void admittedRatesAreCommitmentSharesOfTheUsableCapacity() {
    PlanRequest request =
        request(
                List.of(
                    new TenantDemand("a", 10),
                    new TenantDemand("b", 30),
                    new TenantDemand("c", 60)))
            .withModel(trusted(MODEL, 95, 70));

    CapacityPlan plan = planner.plan(request);

    assertThat(plan.method()).isEqualTo(ModelCapacityPlanner.METHOD);
    double usable = plan.capacityRps() / 1.2;
    assertThat(plan.admittedRps().values().stream().mapToDouble(Double::doubleValue).sum())
        .isCloseTo(usable, within(1e-9));
    assertThat(plan.admittedRps().get("c") / plan.admittedRps().get("a"))
        .isCloseTo(6.0, within(1e-9));
    assertThat(plan.admittedRps().get("b")).isGreaterThanOrEqualTo(30);
    assertThat(plan.explanation()).anyMatch(l -> l.startsWith("usl model of gold (p95"));
    assertThat(plan.explanation())
        .anyMatch(l -> l.contains("with 20% headroom plan for 120.0 rps"));
  }

  @Test
  void passiveTenantsCountedAtTheirMeasuredRateShrinkThePlanButAbidingTenantsKeepTheirCommitment() {
    // 100 rps committed; c is passive at 5 rps of its 60: sized for 45 rps.
    List<TenantDemand> counted =
        List.of(new TenantDemand("a", 10), new TenantDemand("b", 30), new TenantDemand("c", 60, 5));
    List<TenantDemand> committed =
        List.of(new TenantDemand("a", 10), new TenantDemand("b", 30), new TenantDemand("c", 60));
    ModelFit fit = trusted(MODEL, 95, 70);

    CapacityPlan overbooked = planner.plan(request(counted).withModel(fit));
    CapacityPlan full = planner.plan(request(committed).withModel(fit));
    CapacityPlan linear = new LinearCapacityPlanner().plan(request(counted));

    assertThat(overbooked.replicas()).isLessThan(full.replicas());
    assertThat(overbooked.explanation())
        .anyMatch(
            l ->
                l.contains(
                    "3 tenants commit 100.0 rps; 1 passive counted at their measured rate: sized for 45.0 rps; with 20% headroom plan for 54.0 rps"));
    assertThat(overbooked.explanation())
        .anyMatch(l -> l.endsWith("(the class is overbooked while passive tenants stay passive)"));
    assertThat(overbooked.admittedRps().get("a")).isGreaterThanOrEqualTo(10);
    assertThat(overbooked.admittedRps().get("b")).isGreaterThanOrEqualTo(30);
    assertThat(overbooked.admittedRps().get("c") / overbooked.admittedRps().get("a"))
        .isCloseTo(6.0, within(1e-9));
    assertThat(linear.replicas()).isEqualTo(1); // ⌈45 / 60⌉
    assertThat(linear.admittedRps()).containsEntry("c", 60.0);
  }

  @Test
  void whenMaxReplicasCannotCarryTheLoadTenantsAreAdmittedBelowTheirCommitment() {
    PlanRequest request =
        new PlanRequest(
                "gold",
                95,
                75,
                1,
                2,
                60,
                List.of(new TenantDemand("a", 200), new TenantDemand("b", 200)))
            .withModel(trusted(MODEL, 95, 70));

    CapacityPlan plan = planner.plan(request);

    assertThat(plan.replicas()).isEqualTo(2);
    assertThat(plan.admittedRps().get("a")).isLessThan(200).isEqualTo(plan.admittedRps().get("b"));
    assertThat(plan.explanation()).anyMatch(l -> l.startsWith("capacity-limited"));
  }

  /** The planned replicas are the fewest meeting the target at committed × (1 + headroom). */
  @Property(tries = 300)
  void plansTheMinimalReplicasThatMeetTheTargetWithHeadroom(
      @ForAll @DoubleRange(min = 20, max = 200) double perReplicaCutoff,
      @ForAll @DoubleRange(min = 0, max = 0.2) double sigma,
      @ForAll @DoubleRange(min = 0, max = 0.5) double headroom,
      @ForAll @IntRange(min = 1, max = 40) int tenants,
      @ForAll @DoubleRange(min = 1, max = 100) double perTenant) {
    UslModel model = SyntheticRuns.modelWithCutoff(10, 7.5, perReplicaCutoff, 0.6, sigma);
    List<TenantDemand> demands = new ArrayList<>();
    for (int i = 0; i < tenants; i++) {
      demands.add(new TenantDemand("t" + i, perTenant * (1 + i % 3)));
    }
    PlanRequest request =
        new PlanRequest("gold", 95, 75, 1, 1000, perReplicaCutoff, demands)
            .withModel(trusted(model, 95, perReplicaCutoff));
    double planned = request.totalCommittedRps() * (1 + headroom);

    CapacityPlan plan = new ModelCapacityPlanner(new PlanPolicy(headroom, 1.5)).plan(request);

    if (plan.explanation().stream().noneMatch(l -> l.startsWith("capacity-limited"))) {
      assertThat(model.latencyMs(planned, plan.replicas())).isLessThanOrEqualTo(75 * (1 + 1e-9));
      if (plan.replicas() > 1) {
        assertThat(model.latencyMs(planned, plan.replicas() - 1)).isGreaterThan(75);
      }
      assertThat(plan.replicas())
          .isGreaterThanOrEqualTo(new LinearCapacityPlanner().plan(request).replicas() - 1);
    } else {
      assertThat(sigma * planned / perReplicaCutoff).isGreaterThan(0.5);
    }
  }

  @Test
  void aKneeShapedModelIsNotPlannedPastItsUtilisationCap() {
    // The fit of the measured 200m runs: flat 9.2 ms up to μ = 50 rps per replica
    // (the 2026-11-22 verification, in the git history of docs/results/verify).
    QueueModel knee = new QueueModel(9.2, 0, 50, 0);
    List<TenantDemand> mixed =
        List.of(
            new TenantDemand("a", 10),
            new TenantDemand("b", 20),
            new TenantDemand("c", 25),
            new TenantDemand("d", 35));
    PlanRequest request =
        new PlanRequest("verify", 95, 50, 1, 3, 48, mixed).withModel(trusted(knee, 95, 56));

    CapacityPlan capped = new ModelCapacityPlanner(new PlanPolicy(0.1, 1.5, 0.8)).plan(request);
    CapacityPlan uncapped = new ModelCapacityPlanner(new PlanPolicy(0.1, 1.5, 1.0)).plan(request);

    // 99 rps planned: 2 replicas reach μ·2 = 100 rps, but at 80% of μ only 3 do (3 × 40 = 120).
    assertThat(uncapped.replicas()).isEqualTo(2);
    assertThat(capped.replicas()).isEqualTo(3);
    assertThat(capped.capacityRps()).isCloseTo(120, within(1e-9));
    assertThat(capped.explanation())
        .anyMatch(
            l ->
                l.equals(
                    "per-replica load capped at 80% of the saturation rate 50.0 rps: 40.0 rps"));
    assertThat(uncapped.explanation()).noneMatch(l -> l.contains("capped"));
    CapacityPlan usl =
        planner.plan(
            request(List.of(new TenantDemand("a", 100))).withModel(trusted(MODEL, 95, 70)));
    assertThat(usl.explanation())
        .as("a form without saturation is never capped")
        .noneMatch(l -> l.contains("capped"));
  }

  private static PlanRequest request(List<TenantDemand> tenants) {
    return new PlanRequest("gold", 95, 75, 1, 10, 60, tenants);
  }

  static ModelFit trusted(LatencyModel model, double percentile, double maxLoad) {
    return new ModelFit(
        ModelFit.TRUSTED,
        model.form(),
        model,
        percentile,
        20,
        0,
        true,
        0.99,
        1,
        maxLoad,
        List.of(),
        List.of(),
        List.of());
  }
}
