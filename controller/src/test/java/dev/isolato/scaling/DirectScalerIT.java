package dev.isolato.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.isolato.config.ClusterBootstrap;
import dev.isolato.config.IsolatoProperties;
import dev.isolato.it.RealApiServer;
import dev.isolato.tenancy.Fixtures;
import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.Workload;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The direct path on a real API server: a "pool pod" (its status says ready at 127.0.0.1) whose
 * /metrics is a local server answering a counter that grows at a chosen rate. Below the class
 * threshold nothing changes; above it the Deployment's replicas are raised at once to the pods the
 * rate needs.
 */
class DirectScalerIT {
  static final String NS = "isolato-c-direct";
  static KubernetesClient kube;
  static HttpServer pod;
  static volatile double rate = 5;
  static final long STARTED = System.nanoTime();
  static volatile double answered;
  static volatile long lastNanos = STARTED;

  @BeforeAll
  static void cluster() throws IOException {
    kube = RealApiServer.client();
    new ClusterBootstrap(kube, new IsolatoProperties(null, null, true, 0, 0, null, null, null))
        .installCrds();
    RealApiServer.namespace(kube, NS);
    // declared cut-off 20 req/s × pivot 65 %: 13 req/s per pod
    SloClass cls = Fixtures.sloClass("direct", 1, 4, 20);
    cls.getMetadata().setUid(null);
    kube.resource(cls).serverSideApply();
    Map<String, String> labels =
        Map.of(
            PoolObjects.MANAGED_BY,
            PoolObjects.MANAGER,
            PoolObjects.CLASS_LABEL,
            "direct",
            "app.kubernetes.io/name",
            Workload.NAME);
    kube.resource(
            new DeploymentBuilder()
                .withNewMetadata()
                .withName(Workload.NAME)
                .withNamespace(NS)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withReplicas(1)
                .withNewSelector()
                .withMatchLabels(labels)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("none")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .serverSideApply();
    Pod p =
        kube.resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("saas-bench-0")
                    .withNamespace(NS)
                    .withLabels(labels)
                    .endMetadata()
                    .withNewSpec()
                    .addNewContainer()
                    .withName("c")
                    .withImage("none")
                    .endContainer()
                    .endSpec()
                    .build())
            .create();
    p.setStatus(
        new io.fabric8.kubernetes.api.model.PodStatusBuilder()
            .withPodIP("127.0.0.1")
            .withPhase("Running")
            .addNewCondition()
            .withType("Ready")
            .withStatus("True")
            .endCondition()
            .build());
    kube.pods().resource(p).updateStatus();

    pod =
        HttpServer.create(
            new InetSocketAddress(java.net.InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0),
            0); // the pod IP above
    pod.createContext(
        "/metrics",
        x -> {
          long now = System.nanoTime();
          answered += rate * (now - lastNanos) / 1e9;
          lastNanos = now;
          byte[] body =
              ("isolato_gate_requests_total{tenant=\"a\",code=\"200\"} "
                      + answered
                      + "\nisolato_gate_in_flight_requests 0\n")
                  .getBytes(StandardCharsets.UTF_8);
          x.sendResponseHeaders(200, body.length);
          x.getResponseBody().write(body);
          x.close();
        });
    pod.start();
  }

  @AfterAll
  static void stop() {
    pod.stop(0);
    kube.close();
  }

  int replicas() {
    return kube.apps()
        .deployments()
        .inNamespace(NS)
        .withName(Workload.NAME)
        .get()
        .getSpec()
        .getReplicas();
  }

  @Test
  void raisesTheReplicasAsSoonAsTheOfferedRateNeedsThem() {
    try (DirectScaler scaler =
        new DirectScaler(
            kube,
            true,
            Duration.ofMillis(200),
            Duration.ofMinutes(2),
            pod.getAddress().getPort(),
            new SimpleMeterRegistry())) {
      scaler.start();
      // 5 req/s on one pod of 13: measured, and nothing to do
      await().atMost(Duration.ofSeconds(10)).until(() -> scaler.rate(NS) > 3);
      await()
          .during(Duration.ofSeconds(1))
          .atMost(Duration.ofSeconds(3))
          .until(() -> replicas() == 1);
      assertThat(scaler.rate(NS)).isBetween(3.0, 7.0);

      // a step to 35 req/s: ceil(35 / 13) = 3 pods, within a few scrape intervals
      rate = 35;
      long step = System.nanoTime();
      await().atMost(Duration.ofSeconds(3)).until(() -> replicas() == 3);
      assertThat((System.nanoTime() - step) / 1e9).isLessThan(3);
      // written with the floor the pool's autoscaler takes as its minimum for the hold
      Instant after = Instant.now();
      DirectFloor floor =
          DirectFloor.read(
                  kube.apps()
                      .deployments()
                      .inNamespace(NS)
                      .withName(Workload.NAME)
                      .get()
                      .getMetadata()
                      .getAnnotations())
              .orElseThrow();
      assertThat(floor.replicas()).isEqualTo(3);
      assertThat(Duration.between(after, floor.until()))
          .isBetween(Duration.ofSeconds(110), Duration.ofMinutes(2));
    }
  }
}
