package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import dev.isolato.slo.CapacityPlan;
import dev.isolato.slo.LinearCapacityPlanner;
import dev.isolato.slo.TenantDemand;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The context watch's figure in the plan and the Calibrated condition (issue 34 item 4). */
class ContextCutoffPlanTest {
  static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  static final String HERE = "in-context:Xeon+bronze";

  /** Declared 100, newest measured 165 ("alone", elsewhere); the pool's context measured 60. */
  static SloClass placed(String match, double chosen) {
    SloClass c = Fixtures.sloClass("gold", 1, 8, 100);
    c.setStatus(new SloClassStatus());
    c.getStatus().perPodCutoffRps = 165.0;
    c.getStatus().calibratedAt = "2026-11-27T11:00:00Z";
    SloClassStatus.Context x = new SloClassStatus.Context();
    x.nodes = Map.of("n1", HERE);
    x.match = match;
    x.perPodCutoffRps = chosen;
    x.measuredIn = List.of(HERE);
    x.notes = List.of("no cut-off measured in " + HERE + ": planned on 60.0 req/s per pod");
    x.calibratedAt = "2026-11-27T11:00:00Z";
    x.declaredPerPodRps = 100.0;
    c.getStatus().context = x;
    return c;
  }

  @Test
  void thePlanRestsOnTheFigureOfThePoolsContext() {
    SloClass c = placed(SloClassStatus.Context.MATCHED, 60);
    assertThat(CalibrationStatusMapper.calibratedPerPodCutoff(c)).isEqualTo(60);
    CapacityPlan plan =
        new LinearCapacityPlanner()
            .plan(ClassPlans.request(c, List.of(new TenantDemand("a", 300))));
    assertThat(plan.replicas()).as("⌈300 / 60⌉, not ⌈300 / 165⌉").isEqualTo(5);
  }

  @Test
  @DocClaim(
      "docs/calibration.md: The choice is dropped when the class gets a new calibration or declared figure")
  void aChoiceMadeAgainstAnotherCalibrationOrDeclaredFigureIsNotUsed() {
    SloClass newer = placed(SloClassStatus.Context.MATCHED, 60);
    newer.getStatus().calibratedAt = "2026-11-27T11:30:00Z";
    assertThat(CalibrationStatusMapper.calibratedPerPodCutoff(newer)).isEqualTo(165);
    SloClass redeclared = placed(SloClassStatus.Context.MATCHED, 60);
    redeclared.getSpec().perPodCutoffRps = 90;
    assertThat(CalibrationStatusMapper.contextCutoff(redeclared)).isNull();
    SloClass unplaced = placed(SloClassStatus.Context.UNPLACED, 60);
    unplaced.getStatus().context.perPodCutoffRps = null;
    assertThat(CalibrationStatusMapper.calibratedPerPodCutoff(unplaced))
        .as("no pod placed: the newest figure, as before")
        .isEqualTo(165);
  }

  @Test
  @DocClaim("docs/calibration.md: a model fitted in another context is not used")
  void aModelFittedInAnotherContextDoesNotGuideThePlan() {
    SloClass c = placed(SloClassStatus.Context.MATCHED, 60);
    c.getStatus().fit = new SloClassStatus.Fit();
    c.getStatus().fit.context = "alone";
    assertThat(CalibrationStatusMapper.fitHoldsHere(c)).isFalse();
    c.getStatus().fit.context = HERE;
    assertThat(CalibrationStatusMapper.fitHoldsHere(c)).isTrue();
    c.getStatus().context.match = SloClassStatus.Context.NO_MATCH;
    assertThat(CalibrationStatusMapper.fitHoldsHere(c)).isFalse();
  }

  @Test
  void noFigureForTheContextIsCalibratedFalseContextChanged() {
    SloClass c = placed(SloClassStatus.Context.NO_MATCH, 60);
    Condition calibrated =
        CapacityConditions.of(c, null, List.of(), NOW).stream()
            .filter(k -> k.getType().equals(CapacityConditions.CALIBRATED))
            .findFirst()
            .orElseThrow();
    assertThat(calibrated.getStatus()).isEqualTo("False");
    assertThat(calibrated.getReason()).isEqualTo("ContextChanged");
    assertThat(calibrated.getMessage()).startsWith("no cut-off measured in " + HERE);
    SloClass never = placed(SloClassStatus.Context.NO_MATCH, 100);
    never.getStatus().perPodCutoffRps = null;
    assertThat(CapacityConditions.of(never, null, List.of(), NOW).get(0).getReason())
        .as("a class never measured stays Uncalibrated wherever it runs")
        .isEqualTo("Uncalibrated");
    Condition matched =
        CapacityConditions.of(placed(SloClassStatus.Context.MATCHED, 60), null, List.of(), NOW)
            .get(0);
    assertThat(matched.getReason()).isEqualTo("Measured");
    assertThat(matched.getMessage())
        .isEqualTo(
            "planned on the measured 60.0 req/s per pod (calibrated 2026-11-27T11:00:00Z) in the"
                + " context the pool runs in, "
                + HERE);
  }

  @Test
  @DocClaim("docs/calibration.md: a pod size is not chosen on a figure from another context")
  void candidateSizesCarryOnlyFiguresOfThePoolsContext() {
    SloClass c = placed(SloClassStatus.Context.MATCHED, 60);
    c.getSpec().resources.cpuCandidates = List.of("250m", "1");
    c.getStatus().context.podCpuMillis = 500L;
    c.getStatus().cutoffs =
        List.of(point(HERE, 250, 25), point("alone", 1000, 400), point("alone", 500, 165));
    assertThat(CalibrationStatusMapper.sizing(c).candidates())
        .extracting(s -> s.cpuMillis() + "=" + s.perPodCutoffRps())
        .containsExactly("250=25.0", "500=60.0", "1000=null");
    c.getStatus().context.match = SloClassStatus.Context.NO_MATCH;
    assertThat(CalibrationStatusMapper.sizing(c).candidates())
        .extracting(s -> s.cpuMillis() + "=" + s.perPodCutoffRps())
        .containsExactly("250=null", "500=60.0", "1000=null");
    c.getStatus().context = null;
    assertThat(CalibrationStatusMapper.sizing(c).candidates())
        .extracting(s -> s.cpuMillis() + "=" + s.perPodCutoffRps())
        .as("no choice yet: every size's newest figure, as before")
        .containsExactly("250=25.0", "500=165.0", "1000=400.0");
  }

  static SloClassStatus.CutoffPoint point(String context, long cpu, double rps) {
    SloClassStatus.CutoffPoint p = new SloClassStatus.CutoffPoint();
    p.context = context;
    p.pods = 1;
    p.rps = rps;
    p.perPodRps = rps;
    p.podCpuMillis = cpu;
    return p;
  }
}
