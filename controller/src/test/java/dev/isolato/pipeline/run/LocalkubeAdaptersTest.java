package dev.isolato.pipeline.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** How settings are written, what the loop reads from /proc and node labels, on recorded text. */
class LocalkubeAdaptersTest {

  @Test
  void valuesAreWrittenAsLocalkubeAcceptsThem() {
    assertThat(ClusterSettings.format(100.0)).isEqualTo("100");
    assertThat(ClusterSettings.format(2.5)).isEqualTo("2.5");
  }

  @Test
  void processCpuIsUserPlusSystemTimeEvenWhenTheNameHasSpacesAndParentheses() {
    String stat =
        "4242 (kube (api) server) S 1 4242 4242 0 -1 4194560 1000 0 0 0 1234 567 0 0 20 0 12 0 100 0 0";
    assertThat(CpuMeter.processTicks(stat)).isEqualTo(1234 + 567);
  }

  @Test
  void aNodeLabelIsKeyEqualsValueAndAnythingElseIsRefusedWithTheExpectedForm() {
    assertThat(DeploymentBenchmark.NodeLabel.parse("isolato.dev/kwok-node=true"))
        .isEqualTo(new DeploymentBenchmark.NodeLabel("isolato.dev/kwok-node", "true"));
    for (String bad : new String[] {"isolato.dev/kwok-node", "=true", "key="}) {
      assertThatThrownBy(() -> DeploymentBenchmark.NodeLabel.parse(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("KEY=VALUE")
          .hasMessageContaining(bad);
    }
  }
}
