package dev.isolato.images;

import static dev.isolato.images.LocalImages.SAAS_BENCH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.isolato.DocClaim;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;

/**
 * The saas-bench image as Kubernetes runs it (non-root, read-only root filesystem, a CPU limit,
 * SIGTERM on pod deletion), through podman's Docker-compatible API.
 */
class SaasBenchImageTest {
  /** One request of "slow" keeps a worker busy ≈ 2 s (100000 cpu units, docs/saas-bench.md). */
  private static final String TENANTS =
      """
      {"version": "image-test-1", "tenants": {
        "slow": {"profile": {"cpu": 100000}},
        "io": {"profile": {"io": 64, "fsync": true}}}}
      """;

  private static final String UID = "65532";
  private static final Duration STARTUP = Duration.ofSeconds(30);

  /** Generous: on a loaded 2-core host the two ≈ 2 s requests can take many times longer. */
  private static final Duration GRACE = Duration.ofSeconds(60);

  @TempDir static Path config;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void tenantTable() throws IOException {
    // readable by the image's user: the bind mount keeps the host's owner and modes
    Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(config.resolve("tenants.json"), TENANTS);
  }

  /**
   * saas-bench serving on 127.0.0.1:{@code port} with /data on a tmpfs and the tenant table
   * mounted.
   */
  private static GenericContainer<?> saasBench(int port, Consumer<GenericContainer<?>> more) {
    GenericContainer<?> c =
        LocalImages.readOnlyOnHostNetwork(SAAS_BENCH)
            .withTmpFs(Map.of("/data", "rw,size=64m,mode=1777"))
            .withFileSystemBind(config.toString(), "/config", BindMode.READ_ONLY)
            .withCommand(
                "serve",
                "--listen",
                "127.0.0.1:" + port,
                "--data-dir",
                "/data",
                "--tenants",
                "/config/tenants.json",
                "--grace-ms",
                String.valueOf(GRACE.toMillis()));
    more.accept(c);
    return c;
  }

  private void awaitServing(int port) {
    await()
        .atMost(STARTUP)
        .ignoreExceptions()
        .until(() -> get(port, "/healthz").statusCode() == 200);
  }

  @DocClaim(
      "docs/install.md: its root filesystem is read-only (a write fails with `Read-only file system`) while `/data` takes the io stress")
  @Test
  void runsAsNonRootOnAReadOnlyRootFilesystem() throws Exception {
    assertThat(LocalImages.configuredUser(SAAS_BENCH)).isEqualTo(UID + ":" + UID);
    int port = LocalImages.freePort();
    // A static busybox mounted read-only as a probe: the image itself has no shell.
    try (var c =
        saasBench(
            port,
            x -> x.withFileSystemBind("/bin/busybox", "/probe/busybox", BindMode.READ_ONLY))) {
      c.start();
      awaitServing(port);

      ExecResult status = c.execInContainer("/probe/busybox", "grep", "^Uid:", "/proc/1/status");
      assertThat(status.getStdout().split("\\s+"))
          .as("real, effective, saved, fs uid of saas-bench")
          .containsExactly("Uid:", UID, UID, UID, UID);
      ExecResult write = c.execInContainer("/probe/busybox", "touch", "/written-by-test");
      assertThat(write.getExitCode()).isNotZero();
      assertThat(write.getStderr()).contains("Read-only file system");
      // ...and the one writable path, /data, takes the io stress.
      assertThat(post(port, "io").statusCode()).isEqualTo(200);
    }
  }

  /**
   * Workers = ceil(quota / period) of the container's cgroup; 3 CPUs is more than this 2-core host
   * has.
   */
  @DocClaim("docs/install.md: 0.5 → 1, 1.5 → 2, 3 CPUs → 3 workers")
  @ParameterizedTest(name = "cpu quota {0}/{1} µs → {2} workers")
  @CsvSource({"50000, 100000, 1", "150000, 100000, 2", "300000, 100000, 3"})
  void workerCountFollowsTheCgroupCpuQuota(long quota, long period, int workers) throws Exception {
    int port = LocalImages.freePort();
    try (var c =
        saasBench(
            port,
            x ->
                x.withCreateContainerCmdModifier(
                    cmd -> cmd.getHostConfig().withCpuQuota(quota).withCpuPeriod(period)))) {
      c.start();
      awaitServing(port);
      assertThat(metric(get(port, "/metrics").body(), "saasbench_worker_threads"))
          .isEqualTo(workers);
    }
  }

  @DocClaim(
      "docs/install.md: on SIGTERM it refuses new connections at once, finishes the requests in flight (200, `Connection: close`) and exits 0")
  @Test
  void drainsOnSigterm() throws Exception {
    int port = LocalImages.freePort();
    try (var c = saasBench(port, x -> {})) {
      c.start();
      awaitServing(port);
      List<CompletableFuture<HttpResponse<String>>> inFlight =
          IntStream.range(0, 2)
              .mapToObj(
                  i -> http.sendAsync(request(port, "slow"), HttpResponse.BodyHandlers.ofString()))
              .toList();
      await()
          .atMost(STARTUP)
          .until(() -> metric(get(port, "/metrics").body(), "saasbench_in_flight_requests") == 2);

      LocalImages.signal(c, "SIGTERM");
      await().atMost(Duration.ofSeconds(5)).until(() -> refused(port));
      assertThat(inFlight)
          .as("admitted requests still running while new connections are refused")
          .noneMatch(CompletableFuture::isDone);
      for (var f : inFlight) {
        HttpResponse<String> r = f.get();
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Connection")).hasValue("close");
      }
      assertThat(LocalImages.awaitExit(c, GRACE.plusSeconds(10))).as("exit code").isZero();
      assertThat(c.getLogs()).contains("received SIGTERM, draining").contains("drained, exiting");
    }
  }

  private static boolean refused(int port) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(
          new InetSocketAddress(java.net.InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port),
          1000);
      return false;
    } catch (ConnectException e) {
      return true;
    }
  }

  private HttpResponse<String> get(int port, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(int port, String tenant) throws Exception {
    return http.send(request(port, tenant), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest request(int port, String tenant) {
    return HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/v1/tenants/" + tenant + "/requests"))
        .timeout(Duration.ofSeconds(60))
        .POST(HttpRequest.BodyPublishers.noBody())
        .build();
  }

  /** The value of an unlabelled gauge in Prometheus text. */
  static long metric(String text, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + " (\\d+)$").matcher(text);
    assertThat(m.find()).as(name + " in /metrics").isTrue();
    return Long.parseLong(m.group(1));
  }
}
