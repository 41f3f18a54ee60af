package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isolato.DocClaim;
import java.util.List;
import org.junit.jupiter.api.Test;

class ImagePolicyTest {
  @Test
  void exactReferencesAndStarPrefixes() {
    var p = new ImagePolicy(List.of(Workload.DEFAULT_IMAGE, "registry.example.com/isolato/*"));
    assertThat(p.allows(Workload.DEFAULT_IMAGE)).isTrue();
    assertThat(p.allows("localhost/isolato/saas-bench:other")).isFalse();
    assertThat(p.allows("registry.example.com/isolato/saas-bench:1")).isTrue();
    assertThat(p.allows("registry.example.com/other")).isFalse();
  }

  @Test
  @DocClaim("docs/operations.md: (default: the saas-bench image)")
  void aClassWithoutImageRunsTheDefaultAndTheProblemNamesTheAllowlist() {
    var p = new ImagePolicy(List.of(Workload.DEFAULT_IMAGE, Workload.GATE_IMAGE));
    SloClassSpec s = new SloClassSpec();
    assertThat(p.problem(s)).isEmpty();
    s.image = "docker.io/evil:latest";
    assertThat(p.problem(s))
        .hasValueSatisfying(
            m -> assertThat(m).contains("docker.io/evil:latest", Workload.DEFAULT_IMAGE));
  }

  @Test
  void peerSelectorsParseFromText() {
    assertThat(NetworkPeers.selector("a=b, c.d/e=f"))
        .containsExactly(java.util.Map.entry("a", "b"), java.util.Map.entry("c.d/e", "f"));
    assertThat(NetworkPeers.selector("")).isEmpty();
    assertThatThrownBy(() -> NetworkPeers.selector("a")).hasMessageContaining("key=value");
  }

  @Test
  void aConfiguredGateImageIsTheOneChecked() {
    String mirror = "registry.example.com/isolato/gate:1.2";
    SloClassSpec s = new SloClassSpec();
    assertThat(
            new ImagePolicy(List.of(Workload.DEFAULT_IMAGE, Workload.GATE_IMAGE), mirror)
                .problem(s))
        .hasValueSatisfying(m -> assertThat(m).contains(mirror));
    assertThat(
            new ImagePolicy(
                    List.of(Workload.DEFAULT_IMAGE, "registry.example.com/isolato/*"), mirror)
                .problem(s))
        .isEmpty();
    var props =
        new dev.isolato.config.IsolatoProperties.Pools(
            null, null, null, null, null, null, mirror, null);
    assertThat(props.imageAllowlist()).containsExactly(Workload.DEFAULT_IMAGE, mirror);
    assertThat(
            new dev.isolato.config.IsolatoProperties.Pools(
                    null, null, null, null, null, null, " ", null)
                .gateImage())
        .isEqualTo(Workload.GATE_IMAGE);
  }

  @Test
  void theGateAndTheWorkloadImageMustBeAllowedToo() {
    SloClassSpec s = new SloClassSpec();
    assertThat(new ImagePolicy(List.of(Workload.DEFAULT_IMAGE)).problem(s))
        .hasValueSatisfying(m -> assertThat(m).contains(Workload.GATE_IMAGE));
    s.workload = WorkloadFixtures.httpbin();
    var p = new ImagePolicy(List.of(Workload.DEFAULT_IMAGE, Workload.GATE_IMAGE));
    assertThat(p.problem(s))
        .hasValueSatisfying(m -> assertThat(m).contains("localhost/isolato/go-httpbin:dev"));
    assertThat(Workload.imageField(s)).isEqualTo("spec.workload.containers[0].image");
  }
}
