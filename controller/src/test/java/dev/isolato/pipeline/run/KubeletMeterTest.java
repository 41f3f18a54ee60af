package dev.isolato.pipeline.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class KubeletMeterTest {

  @Test
  void workingPodsAddUpEveryNodesPodWorkersInEveryLifecycle() {
    // two nodes' expositions, as mark() concatenates them: 104 + 3 pods starting, running or dying
    String mark =
        String.join(
            "\n",
            "kubelet_working_pods{config=\"desired\",lifecycle=\"sync\",static=\"\"} 4",
            "kubelet_working_pods{config=\"desired\",lifecycle=\"terminating\",static=\"\"} 97",
            "kubelet_working_pods{config=\"orphan\",lifecycle=\"terminated\",static=\"\"} 3",
            "kubelet_running_pods 4",
            "",
            "kubelet_working_pods{config=\"desired\",lifecycle=\"sync\",static=\"\"} 3",
            "");
    assertThat(KubeletMeter.workingPods(mark)).isEqualTo(107);
    assertThat(KubeletMeter.tearingDown(mark)).isEqualTo(100);
    assertThat(KubeletMeter.workingPods("")).isEqualTo(-1);
    assertThat(KubeletMeter.tearingDown("")).isEqualTo(-1);
  }

  @Test
  void withoutKubeletsThereIsNothingToWaitFor() throws InterruptedException {
    // KWOK's fake nodes, or a cluster whose RBAC keeps nodes/proxy from Isolato: returns at once
    KubeletMeter.unavailable().awaitSettled(4, Duration.ZERO);
    KubeletMeter.unavailable().awaitSettled(-1, Duration.ZERO);
  }
}
