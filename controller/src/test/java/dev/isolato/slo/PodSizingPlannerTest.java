package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.slo.PodSizing.SizeCutoff;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodSizingPlannerTest {
  private final PlanPolicy policy = new PlanPolicy(0.1, 1.5, 0.8);
  private final PodSizingPlanner planner =
      new PodSizingPlanner(new ModelCapacityPlanner(policy), new PodSizeChooser(0.1));
  private final PodSizeChooser chooser = new PodSizeChooser(0.1);

  /** The shape measured here: a 100m pod holds far less than a quarter of a 400m pod's rate. */
  private static final List<SizeCutoff> MEASURED =
      List.of(new SizeCutoff(100, 7.0), new SizeCutoff(200, 48.0), new SizeCutoff(400, 90.0));

  @Test
  void choosesTheSizeReservingTheLeastCpuForTheSizedRate() {
    PodSizeChooser.Choice c = chooser.choose(new PodSizing(400, MEASURED, null), 90, 1, 10);

    // 99 rps planned: 100m → 15 pods (> 10), 200m → 3 pods = 600m, 400m → 2 pods = 800m.
    assertThat(c.cpuMillis()).isEqualTo(200);
    assertThat(c.changed()).isTrue();
    assertThat(c.perPodCutoffRps()).isEqualTo(48.0);
    assertThat(c.options())
        .extracting(PodSizeChooser.Option::reservedCpuMillis)
        .containsExactly(1500L, 600L, 800L);
    assertThat(c.explanation())
        .containsExactly(
            "pod size: 200m (declared 400m), the least CPU reserved for 99.0 rps among 3 candidates: 3 × 200m = 600m",
            "  100m: cut-off 7.0 rps per pod needs 15 pods > maxReplicas 10",
            "  200m: cut-off 48.0 rps per pod (4.17 mCPU per rps) → 3 pods, 600m reserved",
            "  400m: cut-off 90.0 rps per pod (4.44 mCPU per rps) → 2 pods, 800m reserved");
  }

  @Test
  void aSmallLoadGoesToTheSmallestPodThatCarriesItEvenIfLessEfficientPerRps() {
    // 6 rps: one 100m pod (cut-off 7) reserves 100m; everything else reserves more.
    assertThat(chooser.choose(new PodSizing(400, MEASURED, null), 6, 1, 10).cpuMillis())
        .isEqualTo(100);
    // minReplicas 2 at 60 rps: 2 × 200m (96 rps) = 400m beats 2 × 400m; 100m needs 10 pods = 1000m.
    assertThat(chooser.choose(new PodSizing(400, MEASURED, null), 60, 2, 10).cpuMillis())
        .isEqualTo(200);
  }

  @Test
  void uncalibratedSizesAreNotChosenAndWithoutAnyTheDeclaredSizeStays() {
    PodSizing partly =
        new PodSizing(400, List.of(new SizeCutoff(200, null), new SizeCutoff(400, 90.0)), null);
    PodSizing none = new PodSizing(400, List.of(new SizeCutoff(200, null)), null);

    assertThat(chooser.choose(partly, 20, 1, 4).cpuMillis()).isEqualTo(400);
    assertThat(chooser.choose(partly, 20, 1, 4).explanation())
        .contains("  200m: not calibrated at this size");
    PodSizeChooser.Choice kept = chooser.choose(none, 20, 1, 4);
    assertThat(kept.cpuMillis()).isEqualTo(400);
    assertThat(kept.changed()).isFalse();
    assertThat(kept.explanation().get(0))
        .isEqualTo("pod size: the declared 400m stays; no candidate size qualifies for 22.0 rps");
  }

  @Test
  void equalReservationsPreferTheBetterCutoffPerCpuThenTheDeclaredSize() {
    // 40 rps planned: 2 × 200m (cut-off 20) = 400m = 1 × 400m (cut-off 45): 400m is cheaper per
    // rps.
    PodSizing tie =
        new PodSizing(200, List.of(new SizeCutoff(200, 20.0), new SizeCutoff(400, 45.0)), null);
    assertThat(new PodSizeChooser(0).choose(tie, 40, 1, 4).cpuMillis()).isEqualTo(400);
    PodSizing same =
        new PodSizing(400, List.of(new SizeCutoff(200, 20.0), new SizeCutoff(400, 40.0)), null);
    assertThat(new PodSizeChooser(0).choose(same, 40, 1, 4).cpuMillis()).isEqualTo(400);
  }

  @Test
  void plansAtTheChosenSizeAndExplainsTheChoiceFirst() {
    PlanRequest request =
        new PlanRequest(
                "gold",
                95,
                50,
                1,
                10,
                90,
                List.of(new TenantDemand("a", 45), new TenantDemand("b", 45)))
            .withSizing(new PodSizing(400, MEASURED, null));

    CapacityPlan plan = planner.plan(request);

    assertThat(plan.podCpuMillis()).isEqualTo(200L);
    assertThat(plan.replicas()).isEqualTo(2); // linear at the chosen size: ⌈90 / 48⌉
    assertThat(plan.explanation().get(0)).startsWith("pod size: 200m (declared 400m)");
    assertThat(plan.explanation())
        .contains("⌈90.0 / 48.0 rps per pod⌉ = 2, clamped to [1, 10] → 2 replicas");
  }

  @Test
  void aModelFittedAtAnotherSizeIsNotUsedAtTheChosenOne() {
    QueueModel at400 = new QueueModel(9.2, 0, 100, 0);
    ModelFit fit = ModelCapacityPlannerTest.trusted(at400, 95, 110);
    PlanRequest request =
        new PlanRequest("gold", 95, 50, 1, 10, 90, List.of(new TenantDemand("a", 90)))
            .withModel(fit);

    CapacityPlan atOther = planner.plan(request.withSizing(new PodSizing(400, MEASURED, 400L)));
    CapacityPlan atFit =
        planner.plan(
            request.withSizing(new PodSizing(400, List.of(new SizeCutoff(400, 90.0)), 400L)));

    assertThat(atOther.explanation())
        .contains("the fitted model was measured at 400m pods, not 200m: not used at this size");
    assertThat(atOther.method()).isEqualTo(ModelCapacityPlanner.FALLBACK_METHOD);
    assertThat(atFit.method()).isEqualTo(ModelCapacityPlanner.METHOD);
    assertThat(atFit.podCpuMillis()).isEqualTo(400L);
  }

  @Test
  void withoutCandidatesTheInnerPlanIsUnchanged() {
    PlanRequest request =
        new PlanRequest("gold", 95, 50, 1, 10, 48, List.of(new TenantDemand("a", 90)));

    assertThat(planner.plan(request)).isEqualTo(new ModelCapacityPlanner(policy).plan(request));
    assertThat(planner.plan(request).podCpuMillis()).isNull();
  }
}
