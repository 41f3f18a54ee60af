package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class GeneratorPodsTest {
  static Pod waiting(String reason, String message) {
    return new PodBuilder()
        .withNewMetadata()
        .withName("isolato-calibration-x")
        .endMetadata()
        .withNewStatus()
        .addNewContainerStatus()
        .withName("openloop")
        .withImage("localhost/isolato/openloop:dev")
        .withNewState()
        .withNewWaiting()
        .withReason(reason)
        .withMessage(message)
        .endWaiting()
        .endState()
        .endContainerStatus()
        .endStatus()
        .build();
  }

  @Test
  void anImageThatCannotBePulledIsNamedWithWhatToDo() {
    assertThat(
            GeneratorPods.stuck(
                List.of(
                    waiting(
                        "ImagePullBackOff",
                        "Back-off pulling image \"localhost/isolato/openloop:dev\""))))
        .hasValueSatisfying(
            m ->
                assertThat(m)
                    .startsWith("ImagePullBackOff: Back-off pulling image")
                    .contains("image localhost/isolato/openloop:dev")
                    .contains("make openloop-image")
                    .contains("isolato.calibration.generator-image"));
  }

  @Test
  void aContainerStillCreatingOrRunningIsNotStuck() {
    assertThat(GeneratorPods.stuck(List.of(waiting("ContainerCreating", null)))).isEmpty();
    assertThat(GeneratorPods.stuck(List.of(new PodBuilder().build()))).isEmpty();
    assertThat(GeneratorPods.stuck(List.of())).isEmpty();
  }
}
