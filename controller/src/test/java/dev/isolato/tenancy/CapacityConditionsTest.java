package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.slo.AdmissionLimit;
import dev.isolato.slo.CapacityPlan;
import dev.isolato.slo.LinearCapacityPlanner;
import dev.isolato.slo.TenantDemand;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The live limit in the plan, admission and the class conditions (issue 34 item 3). */
class CapacityConditionsTest {
  static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  static final List<TenantDemand> TENANTS =
      List.of(new TenantDemand("a", 100), new TenantDemand("b", 50));

  /** Declared 100 req/s per pod, at most 4 pods; the loop measured 35 and failed p95. */
  static SloClass drifted() {
    SloClass c = Fixtures.sloClass("gold", 1, 4, 100);
    c.setStatus(new SloClassStatus());
    SloClassStatus.Capacity cap = new SloClassStatus.Capacity();
    cap.calibratedPerPodRps = 100.0;
    cap.effectivePerPodRps = 35.0;
    cap.sloHeld = false;
    cap.sloHeldSince = "2026-11-27T11:59:40Z";
    cap.measuredLatencyMs = 480.0;
    cap.targetMs = 50.0;
    cap.perPodRps = 50.0;
    cap.pods = 2;
    c.getStatus().capacity = cap;
    return c;
  }

  @Test
  void theLiveLimitSizesThePlanButExistingTenantsKeepTheirAdmittedRates() {
    SloClass c = drifted();
    assertThat(CalibrationStatusMapper.perPodCutoff(c)).isEqualTo(35);
    CapacityPlan plan = new LinearCapacityPlanner().plan(ClassPlans.request(c, TENANTS));
    assertThat(plan.replicas()).as("⌈150 / 35⌉ = 5, clamped to 4").isEqualTo(4);
    // the documented policy: no tenant is cut on a live measurement
    assertThat(plan.admittedRps()).containsEntry("a", 100.0).containsEntry("b", 50.0);
    // new commitments are refused beyond 4 × 35
    assertThat(AdmissionLimit.of(ClassPlans.request(c, TENANTS)).ceilingRps()).isEqualTo(140);
  }

  @Test
  void aLiveLimitScalesEveryCandidateSizeAlike() {
    SloClass c = drifted();
    c.getSpec().resources.cpuCandidates = List.of("250m");
    c.getStatus().perPodCutoffRps = 100.0;
    c.getStatus().cutoffs = List.of(point(500, 100), point(250, 40));
    assertThat(ClassPlans.liveSizing(c).candidates())
        .extracting(s -> s.cpuMillis() + "=" + s.perPodCutoffRps())
        .containsExactly("250=14.0", "500=35.0");
    c.getStatus().capacity = null;
    assertThat(ClassPlans.liveSizing(c).candidates())
        .extracting(s -> s.cpuMillis() + "=" + s.perPodCutoffRps())
        .containsExactly("250=40.0", "500=100.0");
  }

  static SloClassStatus.CutoffPoint point(long cpuMillis, double perPod) {
    SloClassStatus.CutoffPoint p = new SloClassStatus.CutoffPoint();
    p.pods = 1;
    p.rps = perPod;
    p.perPodRps = perPod;
    p.status = "found";
    p.context = "alone";
    p.podCpuMillis = cpuMillis;
    return p;
  }

  @Test
  void aLiveLimitFoundAgainstAnotherCalibrationIsIgnored() {
    SloClass c = drifted();
    c.getStatus().perPodCutoffRps = 80.0; // a calibration the loop has yet to see
    assertThat(CalibrationStatusMapper.liveLimit(c)).isEmpty();
    assertThat(CalibrationStatusMapper.perPodCutoff(c)).isEqualTo(80);
  }

  @Test
  void conditionsSayTheSloFailsAndNameTheShortfall() {
    SloClass c = drifted();
    SloClassStatus.Plan plan =
        ClassPlans.toStatus(
            new LinearCapacityPlanner().plan(ClassPlans.request(c, TENANTS)),
            ClassPlans.request(c, TENANTS));
    List<Condition> conditions = CapacityConditions.of(c, plan, List.of(), NOW);
    assertThat(conditions)
        .extracting(Condition::getType)
        .containsExactly("Calibrated", "SloHeld", "CapacityShort");
    assertThat(conditions.get(0).getReason()).isEqualTo("Uncalibrated");
    assertThat(conditions.get(0).getMessage())
        .startsWith("planned on the declared 100.0 req/s per pod, never measured");
    Condition held = conditions.get(1);
    assertThat(held.getStatus()).isEqualTo("False");
    assertThat(held.getReason()).isEqualTo("OverTarget");
    assertThat(held.getMessage())
        .startsWith("p95 480.0 ms vs target 50.0 ms at 50.0 req/s per pod on 2 pods");
    assertThat(held.getLastTransitionTime()).isEqualTo("2026-11-27T11:59:40Z");
    Condition shortCond = conditions.get(2);
    assertThat(shortCond.getStatus()).isEqualTo("True");
    assertThat(shortCond.getReason()).isEqualTo("LiveCapacityShort");
    assertThat(shortCond.getMessage())
        .startsWith(
            "commitments 150.0 req/s exceed 4 pods × 35.0 req/s per pod (live) = 140.0 req/s by"
                + " 10.0 req/s");
  }

  @Test
  void withoutVerificationOnlyAShortfallIsStated() {
    SloClass c = Fixtures.sloClass("gold", 1, 4, 100);
    SloClassStatus.Plan plan = new SloClassStatus.Plan();
    plan.committedRps = 150;
    plan.perPodCutoffRps = 100;
    assertThat(CapacityConditions.of(c, plan, List.of(), NOW))
        .extracting(Condition::getType, Condition::getStatus, Condition::getReason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("Calibrated", "False", "Uncalibrated"),
            org.assertj.core.groups.Tuple.tuple("SloHeld", "Unknown", "NotVerified"));
    plan.committedRps = 450;
    assertThat(CapacityConditions.of(c, plan, List.of(), NOW))
        .extracting(Condition::getReason)
        .containsExactly("Uncalibrated", "NotVerified", "MaximumTooSmall");
    c.setStatus(new SloClassStatus());
    c.getStatus().perPodCutoffRps = 80.0;
    c.getStatus().calibratedAt = "2026-11-27T10:00:00Z";
    assertThat(CapacityConditions.of(c, plan, List.of(), NOW).get(0).getMessage())
        .isEqualTo("planned on the measured 80.0 req/s per pod (calibrated 2026-11-27T10:00:00Z)");
  }
}
