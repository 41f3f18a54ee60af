package dev.isolato.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KubeletStepsTest {

  private static final String OPS = "kubelet_runtime_operations_duration_seconds";

  private static String scrape(double sandboxSum, long sandboxes, double startSum, long starts) {
    return String.join(
        "\n",
        OPS + "_sum{operation_type=\"run_podsandbox\"} " + sandboxSum,
        OPS + "_count{operation_type=\"run_podsandbox\"} " + sandboxes,
        OPS + "_sum{operation_type=\"start_container\"} " + startSum,
        OPS + "_count{operation_type=\"start_container\"} " + starts,
        OPS + "_sum{operation_type=\"list_podsandbox\"} 99",
        OPS + "_count{operation_type=\"list_podsandbox\"} 99",
        "storage_operation_duration_seconds_sum{operation_name=\"volume_mount\","
            + "volume_plugin=\"kubernetes.io/secret\"} "
            + sandboxSum / 10,
        "storage_operation_duration_seconds_count{operation_name=\"volume_mount\","
            + "volume_plugin=\"kubernetes.io/secret\"} "
            + sandboxes,
        "");
  }

  @Test
  void aStepIsTheGrowthOfItsHistogramBetweenTwoScrapes() {
    // 6 pods whose sandboxes took 11.8 s and containers' starts 17.9 s in all (10m pods)
    Map<Step, Measure> s = KubeletSteps.between(scrape(1.4, 5, 0.7, 5), scrape(13.2, 11, 18.6, 11));
    assertThat(s.get(Step.S5_SANDBOX).count()).isEqualTo(6);
    assertThat(s.get(Step.S5_SANDBOX).mean()).isCloseTo(11.8 / 6, within(1e-9));
    assertThat(s.get(Step.S6_START_CONTAINER).mean()).isCloseTo(17.9 / 6, within(1e-9));
    assertThat(s.get(Step.S5_MOUNT).seconds()).isCloseTo(1.18, within(1e-9));
    // not in the scrape: none ran
    assertThat(s.get(Step.S6_CREATE_CONTAINER)).isEqualTo(new Measure(0, 0));
    assertThat(s.get(Step.S6_CREATE_CONTAINER).mean()).isZero();
    assertThat(s).doesNotContainKeys(Step.S5_READ, Step.S4_SCHEDULE);
  }

  @Test
  void aRestartedKubeletReadsAsNoOperations() {
    Map<Step, Measure> s = KubeletSteps.between(scrape(13.2, 11, 18.6, 11), scrape(0.4, 1, 0.1, 1));
    assertThat(s.get(Step.S5_SANDBOX).count()).isZero();
    assertThat(s.get(Step.S6_START_CONTAINER).seconds()).isZero();
  }
}
