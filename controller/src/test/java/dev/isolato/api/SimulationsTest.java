package dev.isolato.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import dev.isolato.calibration.FieldError;
import dev.isolato.slo.PlanRequest;
import dev.isolato.slo.PlanRequestValidator;
import dev.isolato.slo.TenantDemand;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulationsTest {
  static final PlanRequest GOLD =
      new PlanRequest("gold", 95, 50, 1, 4, 60, List.of(new TenantDemand("live", 5)));

  static SimulateRequest.Overrides overrides(
      Double percentile, Double targetMs, Integer min, Integer max, Double cutoff) {
    return new SimulateRequest.Overrides(percentile, targetMs, min, max, cutoff, null);
  }

  @Test
  @DocClaim(
      "docs/api.md: 400 names the field (`tenants[1].committedRps`, `overrides.maxReplicas`, `sloClass`)")
  void missingAndBadFieldsAreNamedByTheirJsonPath() {
    List<SimulateRequest.Demand> tenants = new ArrayList<>();
    tenants.add(new SimulateRequest.Demand("a", null));
    tenants.add(null);
    var errors =
        Simulations.requestErrors(
            new SimulateRequest(" ", tenants, overrides(null, null, null, null, 0.0)));
    assertThat(errors)
        .extracting(FieldError::field)
        .containsExactly(
            "sloClass", "tenants[0].committedRps", "tenants[1]", "overrides.perPodCutoffRps");
    assertThat(Simulations.requestErrors(new SimulateRequest("gold", null, null)))
        .extracting(FieldError::field)
        .containsExactly("tenants");
    var many =
        Collections.nCopies(Simulations.MAX_TENANTS + 1, new SimulateRequest.Demand("x", 1.0));
    assertThat(Simulations.requestErrors(new SimulateRequest("gold", many, null)))
        .extracting(FieldError::field)
        .containsExactly("tenants");
    assertThat(Simulations.requestErrors(new SimulateRequest("gold", List.of(), null))).isEmpty();
  }

  @Test
  @DocClaim("docs/api.md: (default: the class's values and its stored fit;")
  void theWhatIfReplacesTheTenantsAndAppliesOverrides() {
    var body =
        new SimulateRequest(
            "gold",
            List.of(new SimulateRequest.Demand("a", 30.0), new SimulateRequest.Demand("b", 70.0)),
            overrides(null, 75.0, null, 6, null));
    PlanRequest r = Simulations.apply(GOLD, body);
    assertThat(r.tenants()).extracting(TenantDemand::tenantId).containsExactly("a", "b");
    assertThat(r.totalCommittedRps()).isEqualTo(100);
    assertThat(r.targetLatencyMs()).isEqualTo(75);
    assertThat(r.maxReplicas()).isEqualTo(6);
    assertThat(r.percentile()).isEqualTo(95);
    assertThat(r.perPodCutoffRps()).isEqualTo(60);
    assertThat(Simulations.apply(GOLD, new SimulateRequest("gold", List.of(), null)).tenants())
        .isEmpty();
  }

  @Test
  void engineErrorsOnOverridesAreTheRequestsAndOnTheClassTheClasss() {
    var body =
        new SimulateRequest(
            "gold",
            List.of(new SimulateRequest.Demand("a", -1.0), new SimulateRequest.Demand("a", 1.0)),
            overrides(null, null, 3, 2, null));
    PlanRequest r = Simulations.apply(new PlanRequest("gold", 99.9, 50, 1, 4, 60, List.of()), body);
    Simulations.Split split = Simulations.split(PlanRequestValidator.validate(r), body);
    assertThat(split.request())
        .extracting(FieldError::field)
        .containsExactlyInAnyOrder(
            "overrides.maxReplicas", "tenants[0].committedRps", "tenants[1].tenantId");
    assertThat(split.cls())
        .extracting(FieldError::field)
        .containsExactly("spec.latency.percentile");
  }
}
