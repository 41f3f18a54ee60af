package dev.isolato.pipeline.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the loop reads from localkube's command and from /proc, on recorded text. */
class LocalkubeAdaptersTest {

  @Test
  void readsTheEffectiveConfigurationAndWhichKeysTheUserSet() {
    String config =
        """
        # effective localkube configuration (defaults: /x/defaults.conf, overrides: /y/localkube.conf)
        node.name = localkube
        controller-manager.kube-api-qps = 100   # set in localkube.conf
        kubelet.kubeAPIQPS = 50
        prometheus.controller-target = 127.0.0.1:9090
        """;
    Map<String, LocalkubeSettings.Setting> s = LocalkubeSettings.parse(config);
    assertThat(s)
        .containsEntry(
            "controller-manager.kube-api-qps", new LocalkubeSettings.Setting("100", true))
        .containsEntry("kubelet.kubeAPIQPS", new LocalkubeSettings.Setting("50", false))
        .containsEntry(
            "prometheus.controller-target", new LocalkubeSettings.Setting("127.0.0.1:9090", false))
        .hasSize(4);
  }

  @Test
  void valuesAreWrittenAsLocalkubeAcceptsThem() {
    assertThat(LocalkubeSettings.format(100.0)).isEqualTo("100");
    assertThat(LocalkubeSettings.format(2.5)).isEqualTo("2.5");
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
