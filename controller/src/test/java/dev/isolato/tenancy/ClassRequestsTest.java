package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isolato.calibration.FieldError;
import dev.isolato.calibration.RequestMix;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClassRequestsTest {
  private static SloClassSpec workloadClass(String tenantKey, SloClassSpec.MixEndpoint... mix) {
    SloClassSpec s = new SloClassSpec();
    s.workload = new WorkloadTemplate();
    s.workload.containers = List.of(new WorkloadTemplate.AppContainer());
    s.tenantKey = tenantKey;
    s.requestMix = mix.length == 0 ? null : new ArrayList<>(List.of(mix));
    return s;
  }

  private static SloClassSpec.MixEndpoint e(String method, String path, int weight) {
    return new SloClassSpec.MixEndpoint(method, path, weight);
  }

  @Test
  void aProvidersClassReplaysItsOwnMixWithTheTenantInItsHeader() {
    RequestMix mix =
        ClassRequests.of(
            "httpbin", workloadClass(null, e("GET", "/get", 3), e("POST", "/post", 1)));
    assertThat(mix.tenantHeader()).isEqualTo("X-Tenant"); // a workload class's default key
    assertThat(mix.cycle()).containsExactly(0, 0, 1, 0);
    assertThat(mix.pick(2).path("t1")).isEqualTo("/post");
  }

  @Test
  void aProvidersClassWithoutAMixIsNotCalibratedWithSaasBenchsRoute() {
    assertThatThrownBy(() -> ClassRequests.of("httpbin", workloadClass("header:X-Tenant")))
        .hasMessageContaining("class httpbin runs its own workload and has no spec.requestMix")
        .hasMessageContaining("docs/bring-your-service.md");
  }

  @Test
  void anImageClassWithoutAMixReplaysSaasBenchsRoute() {
    RequestMix mix = ClassRequests.of("gold", new SloClassSpec());
    assertThat(mix.pick(0).path("t1")).isEqualTo("/v1/tenants/t1/requests");
    assertThat(mix.pick(0).method()).isEqualTo("POST");
    assertThat(mix.tenantHeader()).isEmpty();
  }

  @Test
  void aPathKeyNeedsEveryPathToCarryTheTenantAfterItsPrefix() {
    SloClassSpec s =
        workloadClass("path:/t/", e("GET", "/t/{tenant}/items", 1), e("GET", "/items", 1));
    assertThat(ClassRequests.problems(s))
        .containsExactly(
            new FieldError(
                "spec.requestMix[1].path",
                "must start with /t/{tenant}: the gate finds the tenant after tenantKey's prefix,"
                    + " was '/items'"));
    assertThatThrownBy(() -> ClassRequests.of("c", s))
        .hasMessageStartingWith("class c: spec.requestMix[1].path must start with /t/{tenant}");
  }

  @Test
  void badEndpointsAndAHostKeyAreNamedPerField() {
    List<FieldError> p =
        ClassRequests.problems(
            workloadClass("host", e("BREW", "/pot", 1), e("GET", "no-slash", 1), e("GET", "/", 0)));
    assertThat(p)
        .extracting(FieldError::field)
        .containsExactly(
            "spec.requestMix",
            "spec.requestMix[0].method",
            "spec.requestMix[1].path",
            "spec.requestMix[2].weight");
    assertThat(ClassRequests.problems(workloadClass(null))).isEmpty();
    SloClassSpec empty = workloadClass(null);
    empty.requestMix = List.of(); // what a generated client sends for a list it was not given
    assertThat(ClassRequests.problems(empty)).isEmpty();
    assertThatThrownBy(() -> ClassRequests.of("c", empty))
        .hasMessageContaining("no spec.requestMix");
    SloClassSpec many = workloadClass(null);
    many.requestMix = java.util.Collections.nCopies(17, e("GET", "/get", 1));
    assertThat(ClassRequests.problems(many))
        .extracting(FieldError::message)
        .containsExactly("must have at most 16 endpoints, had 17");
  }
}
