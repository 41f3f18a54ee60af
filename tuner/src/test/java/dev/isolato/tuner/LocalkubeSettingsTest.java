package dev.isolato.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the tuner reads from localkube's command, on recorded text. */
class LocalkubeSettingsTest {

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
}
