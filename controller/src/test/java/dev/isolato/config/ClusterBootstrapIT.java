package dev.isolato.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.isolato.it.RealApiServer;
import dev.isolato.tenancy.PoolObjects;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The controller's namespace on a real kube-apiserver (which runs no namespace controller, so a
 * deleted namespace stays Terminating until the test finalizes it, as kube-controller-manager
 * would).
 */
class ClusterBootstrapIT {
  static KubernetesClient kube;

  @BeforeAll
  static void client() {
    kube = RealApiServer.client();
  }

  @AfterAll
  static void close() {
    kube.close();
  }

  private static ClusterBootstrap bootstrap(String ns) {
    return new ClusterBootstrap(
        kube, new IsolatoProperties(ns, null, false, 0, 0, null, null, null));
  }

  private static void terminating(String ns) {
    kube.resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(ns)
                .addToLabels("left-by", "uninstall")
                .endMetadata()
                .build())
        .create();
    kube.namespaces().withName(ns).delete();
    assertThat(kube.namespaces().withName(ns).get().getMetadata().getDeletionTimestamp())
        .isNotNull();
  }

  /** What the namespace controller does once the namespace is empty. */
  private static void finalizeAndDelete(String ns) {
    kube.raw(
        "/api/v1/namespaces/" + ns + "/finalize",
        "PUT",
        Map.of(
            "apiVersion",
            "v1",
            "kind",
            "Namespace",
            "metadata",
            Map.of("name", ns),
            "spec",
            Map.of("finalizers", java.util.List.of())));
    kube.namespaces().withName(ns).delete();
  }

  @Test
  void aTerminatingNamespaceIsWaitedForThenCreatedAfresh() {
    String ns = "bootstrap-wait-it";
    terminating(ns);
    CompletableFuture<Void> ensured =
        CompletableFuture.runAsync(() -> bootstrap(ns).ensureNamespace(Duration.ofMinutes(1)));
    // it must not create into (or return on) the terminating namespace
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(5))
        .until(() -> !ensured.isDone());
    finalizeAndDelete(ns);
    await().atMost(Duration.ofSeconds(30)).until(ensured::isDone);
    ensured.join();
    Namespace fresh = kube.namespaces().withName(ns).get();
    assertThat(fresh.getMetadata().getDeletionTimestamp()).isNull();
    assertThat(fresh.getMetadata().getLabels())
        .doesNotContainKey("left-by")
        .containsEntry(PoolObjects.MANAGED_BY, PoolObjects.MANAGER)
        .containsAllEntriesOf(PoolObjects.podSecurityLabels());
  }

  @Test
  void aNamespaceThatNeverGoesFailsTheStartWithWhatToLookAt() {
    String ns = "bootstrap-stuck-it";
    terminating(ns);
    try {
      assertThatThrownBy(() -> bootstrap(ns).ensureNamespace(Duration.ofSeconds(1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("has been terminating for more than")
          .hasMessageContaining("kubectl get namespace " + ns + " -o yaml");
    } finally {
      finalizeAndDelete(ns);
    }
  }
}
