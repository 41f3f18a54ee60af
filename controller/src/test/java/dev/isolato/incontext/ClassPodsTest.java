package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

class ClassPodsTest {
  @Test
  void theCopyKeepsWhatTheContextWatchReadsAndDropsTheRest() {
    Pod p =
        new PodBuilder()
            .withNewMetadata()
            .withName("saas-bench-1")
            .withNamespace("isolato-pool-gold")
            .addToLabels("isolato.dev/class", "gold")
            .addToLabels("isolato.dev/pool", "isolato-pool-gold")
            .addToLabels("isolato.dev/io-heavy", "true")
            .addToAnnotations("big", "x".repeat(1000))
            .endMetadata()
            .withNewSpec()
            .withNodeName("n1")
            .addNewContainer()
            .withName("app")
            .withImage("saas-bench")
            .endContainer()
            .endSpec()
            .withNewStatus()
            .withPhase("Running")
            .withPodIP("10.0.0.1")
            .endStatus()
            .build();
    NodeContexts.PodOnNode before = ContextWatch.onNode(p);
    ClassPods.keepPlacement(p);
    assertThat(ContextWatch.onNode(p)).isEqualTo(before).isNotNull();
    assertThat(p.getSpec().getContainers()).isEmpty();
    assertThat(p.getStatus().getPodIP()).isNull();
    assertThat(p.getMetadata().getAnnotations()).isNull();

    Pod unplaced = new PodBuilder().withNewMetadata().withName("x").endMetadata().build();
    ClassPods.keepPlacement(unplaced);
    assertThat(ContextWatch.onNode(unplaced)).isNull();
  }
}
