package dev.isolato.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.isolato.DocClaim;
import dev.isolato.calibration.FieldError;
import dev.isolato.tenancy.SloClassSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValidationTest {
  static TenantRequest tenant(String id, String cls, Double rps) {
    return new TenantRequest(id, cls, rps, null, new TenantRequest.Profile(1, 2, 0, false), null);
  }

  static List<String> fields(List<FieldError> errors) {
    return errors.stream().map(FieldError::field).toList();
  }

  @Test
  void aGoodTenantHasNoErrors() {
    assertThat(Validation.tenant(tenant("acme-1", "gold", 10.0))).isEmpty();
  }

  @Test
  void idsMustBeShortDns1123Labels() {
    assertThat(fields(Validation.tenant(tenant("Acme", "gold", 1.0)))).containsExactly("tenantId");
    assertThat(fields(Validation.tenant(tenant("-acme", "gold", 1.0)))).containsExactly("tenantId");
    // isolato-t-<id> is a namespace name: 63 - 10 characters
    assertThat(fields(Validation.tenant(tenant("a".repeat(54), "gold", 1.0))))
        .containsExactly("tenantId");
    assertThat(fields(Validation.tenant(tenant("a".repeat(53), "gold", 1.0)))).isEmpty();
    assertThat(fields(Validation.tenant(tenant("acme", "gold_class", 1.0))))
        .containsExactly("sloClass");
    assertThat(fields(Validation.tenant(tenant(null, null, null))))
        .containsExactly("tenantId", "sloClass", "committedRps");
  }

  @Test
  @DocClaim("docs/api.md: `committedRps` 0.001..1,000,000 req/s; `burst` 1..1,000,000")
  void ratesAndProfilesAreBounded() {
    assertThat(fields(Validation.tenant(tenant("a", "g", 0.0)))).containsExactly("committedRps");
    assertThat(fields(Validation.tenant(tenant("a", "g", Double.NaN))))
        .containsExactly("committedRps");
    assertThat(
            fields(
                Validation.tenant(
                    new TenantRequest(
                        "a",
                        "g",
                        1.0,
                        0.5,
                        new TenantRequest.Profile(-1, 300_000, 20_000, null),
                        "private"))))
        .containsExactly("burst", "profile.cpu", "profile.memory", "profile.io", "isolation");
  }

  static SloClassSpec spec() {
    SloClassSpec s = new SloClassSpec();
    s.latency.targetMs = 100;
    s.resources.cpu = "500m";
    s.resources.memory = "128Mi";
    s.perPodCutoffRps = 40;
    return s;
  }

  @Test
  void aGoodClassHasNoErrors() {
    assertThat(Validation.sloClass("gold", spec())).isEmpty();
  }

  @Test
  void classErrorsNameEveryBadField() {
    SloClassSpec s = spec();
    s.resources.cpu = "lots";
    s.resources.memory = "0Mi";
    s.minReplicas = 3;
    s.maxReplicas = 2;
    s.pivotPercent = 0;
    s.perPodCutoffRps = 0;
    s.latency.percentile = 0;
    assertThat(fields(Validation.sloClass("a".repeat(54), s)))
        .containsExactly(
            "name",
            "spec.latency.percentile",
            "spec.resources.cpu",
            "spec.resources.memory",
            "spec.maxReplicas",
            "spec.pivotPercent",
            "spec.perPodCutoffRps");
  }

  @Test
  void theAppsShareAtTheGateIsBounded() {
    SloClassSpec s = spec();
    s.gate = new SloClassSpec.GateSpec();
    assertThat(Validation.sloClass("gold", s)).as("the defaults").isEmpty();
    s.gate.maxAppRequests = 0;
    s.gate.queueTimeoutMs = 60_001;
    assertThat(Validation.sloClass("gold", s))
        .extracting(FieldError::field, FieldError::message)
        .containsExactly(
            tuple("spec.gate.maxAppRequests", "must be between 1 and 1024, was 0"),
            tuple("spec.gate.queueTimeoutMs", "must be between 10 and 60000, was 60001"));
  }

  @Test
  void aHeadroomNeedsAPositiveCpuQuantity() {
    SloClassSpec s = spec();
    s.headroom = new SloClassSpec.Headroom();
    assertThat(fields(Validation.sloClass("gold", s))).containsExactly("spec.headroom.cpu");
    s.headroom.cpu = "0m";
    assertThat(Validation.sloClass("gold", s))
        .singleElement()
        .satisfies(e -> assertThat(e.message()).contains("positive Kubernetes quantity", "'0m'"));
    s.headroom.cpu = "150m";
    assertThat(Validation.sloClass("gold", s)).isEmpty();
  }

  @Test
  @DocClaim("docs/api.md: `default`, `isolato`, `kube` and `kube-*` are reserved (400)")
  @DocClaim(
      "docs/operations.md: Class names `system`, `default`, `isolato`, `kube`, `kube-*` are refused (400)")
  void reservedClassNamesAreRefusedNamingTheRule() {
    for (String name : List.of("system", "default", "kube-system", "kube-anything", "isolato")) {
      List<FieldError> errors = Validation.sloClass(name, spec());
      assertThat(fields(errors)).as(name).containsExactly("name");
      assertThat(errors.get(0).message()).contains("reserved");
    }
    assertThat(Validation.sloClass("systems", spec())).isEmpty();
  }

  @Test
  void ifMatchAcceptsStrongAndWeakEtags() {
    assertThat(Etags.resourceVersion("\"42\"")).isEqualTo("42");
    assertThat(Etags.resourceVersion("W/\"42\"")).isEqualTo("42");
    assertThat(Etags.resourceVersion(null)).isNull();
    assertThat(Etags.resourceVersion("*")).isNull();
  }
}
