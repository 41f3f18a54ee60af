package dev.isolato.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.it.RealApiServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The leader's pod mark on a real kube-apiserver: set on leading, cleared on (re)start, other
 * labels kept.
 */
class LeaderRoutingIT {
  static final String NS = "routing-it";
  static KubernetesClient kube;

  @BeforeAll
  static void client() {
    kube = RealApiServer.client();
    RealApiServer.namespace(kube, NS);
  }

  @AfterAll
  static void close() {
    kube.close();
  }

  private static Pod pod(String name) {
    return kube.resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .addToLabels("app", "isolato")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("x")
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  private static java.util.Map<String, String> labels(String name) {
    return kube.pods().inNamespace(NS).withName(name).get().getMetadata().getLabels();
  }

  @Test
  void theLeaderMarksItsPodAndARestartClearsTheMark() {
    pod("replica-a");
    LeaderRouting a = new LeaderRouting(kube, NS, "replica-a");
    a.lead();
    assertThat(labels("replica-a"))
        .containsEntry(LeaderRouting.LABEL, "true")
        .containsEntry("app", "isolato");
    a.resign();
    assertThat(labels("replica-a"))
        .doesNotContainKey(LeaderRouting.LABEL)
        .containsEntry("app", "isolato");
  }

  @Test
  void withoutAPodNameNothingIsMarked() {
    pod("replica-b");
    new LeaderRouting(kube, NS, "").lead();
    assertThat(labels("replica-b")).doesNotContainKey(LeaderRouting.LABEL);
  }
}
