package dev.isolato.pipeline.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class DeploymentBenchmarkTest {

  private static DeploymentBenchmark on(Optional<DeploymentBenchmark.NodeLabel> nodes) {
    return new DeploymentBenchmark(
        null, PipelineProperties.defaults(), CpuMeter.unavailable(), nodes);
  }

  @Test
  void onFakeNodesNoKubeletSettingIsProposed() {
    // KWOK run of 2026-11-26 14:02: kubelet.kubeAPIQPS came up for pods no kubelet runs
    assertThat(on(Optional.of(DeploymentBenchmark.NodeLabel.parse("kwok=true"))).notExercised())
        .contains("kubelet.kubeAPIQPS", "kubelet.kubeAPIBurst", "kubelet.serializeImagePulls")
        .contains("isolato.pool-apply-threads");
    assertThat(on(Optional.empty()).notExercised())
        .doesNotContain("kubelet.kubeAPIQPS")
        .contains("kubelet.registryPullQPS", "isolato.pool-apply-threads");
  }
}
