package dev.isolato.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.DocClaim;
import dev.isolato.calibration.FieldError;
import dev.isolato.tenancy.SloClassSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The REST validation rejects (400) every value the CRD schema the crd-generator wrote
 * (target/classes/META-INF/fabric8) would make the API server reject (422): for each bounded number
 * of a spec, the first value past each bound, and every bounded value itself accepted.
 */
class CrdAgreementTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String TENANT =
      """
      {"tenantId":"acme","sloClass":"gold","committedRps":10,"burst":10,"profile":{"cpu":1,"memory":1,"io":1}}""";
  private static final String CLASS =
      """
      {"latency":{"percentile":95,"targetMs":50},"resources":{"cpu":"250m","memory":"64Mi"},"priority":0,
       "minReplicas":1,"maxReplicas":1000,"pivotPercent":60,"perPodCutoffRps":10,"image":"x"}""";

  @Test
  void tenantValidationRejectsWhatTheTenantCrdRejects() throws Exception {
    probe(
        "tenants.isolato.dev-v1.yml",
        TENANT,
        "",
        body -> Validation.tenant(JSON.treeToValue(body, TenantRequest.class)));
  }

  @Test
  void classValidationRejectsWhatTheSloClassCrdRejects() throws Exception {
    probe(
        "sloclasses.isolato.dev-v1.yml",
        CLASS,
        "spec.",
        body -> Validation.sloClass("gold", JSON.treeToValue(body, SloClassSpec.class)));
  }

  @Test
  @DocClaim("docs/api.md: the API answers 400 for everything the API server would refuse with 422")
  void aVanishinglySmallRateIsA400NotTheApiServers422() {
    var r = new TenantRequest("acme", "gold", 1e-300, null, null, null);
    assertThat(Validation.tenant(r)).extracting(FieldError::field).containsExactly("committedRps");
    SloClassSpec s = new SloClassSpec();
    s.resources.cpu = "1";
    s.resources.memory = "1Gi";
    s.latency.targetMs = 1e-300;
    s.perPodCutoffRps = 1e-300;
    assertThat(Validation.sloClass("gold", s))
        .extracting(FieldError::field)
        .containsExactly("spec.latency.targetMs", "spec.perPodCutoffRps");
  }

  @Test
  void quantitiesFollowTheCrdPattern() {
    SloClassSpec s = new SloClassSpec();
    s.latency.targetMs = 50;
    s.perPodCutoffRps = 10;
    for (String bad : List.of("0", "0m", "0.0", "-1", "1.", "1 Gi", "1e3")) {
      s.resources.cpu = bad;
      s.resources.memory = "1Gi";
      assertThat(Validation.sloClass("gold", s))
          .as(bad)
          .extracting(FieldError::field)
          .containsExactly("spec.resources.cpu");
    }
    for (String good : List.of("1", "0.5", "500m", "256Mi", "01")) {
      s.resources.cpu = good;
      assertThat(Validation.sloClass("gold", s)).as(good).isEmpty();
    }
  }

  interface Check {
    List<FieldError> apply(JsonNode body) throws Exception;
  }

  /**
   * For every property with a minimum or maximum under spec: the bound passes, one step past it
   * fails.
   */
  private static void probe(String crd, String valid, String prefix, Check check) throws Exception {
    List<CrdBounds.Probe> probes = CrdBounds.probes(crd, valid);
    assertThat(probes).as("bounds found in " + crd).isNotEmpty();
    for (CrdBounds.Probe p : probes) {
      List<String> fields = fields(check.apply(p.body()));
      if (p.inBounds()) {
        assertThat(fields)
            .as("%s at its %s %s", p.path(), p.bound(), p.value())
            .doesNotContain(prefix + p.path());
      } else {
        assertThat(fields)
            .as("%s = %s, past its %s", p.path(), p.value(), p.bound())
            .contains(prefix + p.path());
      }
    }
  }

  private static List<String> fields(List<FieldError> errors) {
    return errors.stream().map(FieldError::field).toList();
  }
}
