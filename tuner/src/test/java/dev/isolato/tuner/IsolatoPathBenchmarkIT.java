package dev.isolato.tuner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.isolato.it.RealApiServer;
import dev.isolato.pipeline.run.CpuMeter;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The path benchmark never deletes a class or tenant it did not create: on a real kube-apiserver,
 * against an Isolato API on loopback that answers 409 (the name is taken) to every create.
 */
class IsolatoPathBenchmarkIT {

  private KubernetesClient kube;
  private HttpServer isolato;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    kube = RealApiServer.client();
    isolato = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    isolato.createContext(
        "/",
        ex -> {
          requests.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
          byte[] body =
              "{\"title\":\"Conflict\",\"detail\":\"the name is taken\"}"
                  .getBytes(StandardCharsets.UTF_8);
          int status = ex.getRequestMethod().equals("POST") ? 409 : 404;
          ex.getResponseHeaders().add("Content-Type", "application/problem+json");
          ex.sendResponseHeaders(status, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    isolato.start();
  }

  @AfterEach
  void stop() {
    isolato.stop(0);
    kube.close();
  }

  private IsolatoPathBenchmark bench(IsolatoPathBenchmark.Path path) {
    IsolatoApi api =
        new IsolatoApi(
            URI.create("http://127.0.0.1:" + isolato.getAddress().getPort()), "not-checked");
    return new IsolatoPathBenchmark(
        kube,
        api,
        path,
        "taken",
        "localhost/isolato/saas-bench:dev",
        "isolato-system",
        CpuMeter.unavailable(),
        () -> 0,
        Duration.ofSeconds(5));
  }

  private List<String> deletes() {
    return requests.stream().filter(r -> r.startsWith("DELETE")).toList();
  }

  @Test
  void aClassWhoseNameWasTakenIsNeitherUsedNorDeleted() {
    IsolatoPathBenchmark b = bench(IsolatoPathBenchmark.Path.SCALE);
    assertThatThrownBy(b::prepare).hasMessageContaining("409");
    b.close();
    assertThat(requests).containsExactly("POST /api/v1/slo-classes");
  }

  /** A run of {@code path} whose create of {@code what} is refused as taken. */
  private void aRunWhoseNamesWereTakenDeletesNothing(
      IsolatoPathBenchmark.Path path, int workloads, int pods, String what) {
    IsolatoPathBenchmark b = bench(path);
    assertThatThrownBy(() -> b.run(IsolatoPathBenchmark.shape(path, workloads, pods), "r1"))
        .hasMessageContaining("409");
    b.close();
    assertThat(requests).contains("POST " + what);
    assertThat(deletes()).isEmpty();
  }

  @Test
  void aNewClassRunWhoseNameWasTakenDeletesNothing() {
    aRunWhoseNamesWereTakenDeletesNothing(
        IsolatoPathBenchmark.Path.CLASS, 1, 3, "/api/v1/slo-classes");
  }

  @Test
  void tenantsWhoseIdsWereTakenAreNotOffboarded() {
    aRunWhoseNamesWereTakenDeletesNothing(
        IsolatoPathBenchmark.Path.TENANTS, 3, 1, "/api/v1/tenants");
  }
}
