package dev.isolato.images;

import static dev.isolato.images.LocalImages.CONTROLLER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.isolato.DocClaim;
import dev.isolato.it.RealApiServer;
import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;

/**
 * The controller image as the chart runs it (uid 65532, read-only root filesystem, /tmp a tmpfs)
 * against a real kube-apiserver on loopback: it becomes ready, and a bad setting stops it with a
 * one-line reason and what to do, not a stack trace.
 */
class ControllerImageTest {
  private static final Duration JVM_START = Duration.ofMinutes(2);

  @TempDir static Path config;

  @BeforeAll
  static void configFiles() throws IOException {
    Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(config.resolve("kubeconfig"), selfContained(RealApiServer.config()));
  }

  /**
   * kube-api-test's kubeconfig names its certificate files, which uid 65532 may not read; the
   * container gets one with the certificates inline (and world-readable: a throw-away test CA).
   */
  private static String selfContained(Config c) throws IOException {
    return """
        apiVersion: v1
        kind: Config
        clusters: [{name: test, cluster: {server: "%s", certificate-authority-data: %s}}]
        users: [{name: test, user: {client-certificate-data: %s, client-key-data: %s}}]
        contexts: [{name: test, context: {cluster: test, user: test}}]
        current-context: test
        """
        .formatted(
            c.getMasterUrl(),
            base64(c.getCaCertFile()),
            base64(c.getClientCertFile()),
            base64(c.getClientKeyFile()));
  }

  private static String base64(String file) throws IOException {
    return Base64.getEncoder().encodeToString(Files.readAllBytes(Path.of(file)));
  }

  private static GenericContainer<?> controller(
      int port, int managementPort, Map<String, String> env) {
    GenericContainer<?> c =
        LocalImages.readOnlyOnHostNetwork(CONTROLLER)
            .withTmpFs(Map.of("/tmp", "rw,size=64m,mode=1777"))
            .withFileSystemBind(config.toString(), "/config", BindMode.READ_ONLY)
            .withEnv("ISOLATO_ADDRESS", "127.0.0.1")
            .withEnv("ISOLATO_PORT", String.valueOf(port))
            .withEnv("ISOLATO_MANAGEMENT_PORT", String.valueOf(managementPort))
            .withEnv("ISOLATO_NAMESPACE", "isolato-image-test")
            .withEnv("ISOLATO_KUBECONFIG", "/config/kubeconfig")
            .withStartupCheckStrategy(LocalImages.runningOrExited());
    env.forEach(c::withEnv);
    return c;
  }

  @DocClaim(
      "docs/install.md: answers `/readyz` and `/actuator/health/readiness` once connected to a real kube-apiserver")
  @Test
  void startsAsNonRootAndAnswersReadiness() throws Exception {
    assertThat(LocalImages.configuredUser(CONTROLLER)).isEqualTo("65532:65532");
    int port = LocalImages.freePort();
    int management = LocalImages.freePort();
    HttpClient http = HttpClient.newHttpClient();
    try (var c = controller(port, management, Map.of())) {
      long t0 = System.nanoTime();
      c.start();
      await()
          .atMost(JVM_START)
          .ignoreExceptions()
          .until(
              () -> {
                assertThat(c.isRunning())
                    .as("controller still running; its log:\n%s", c.getLogs())
                    .isTrue();
                return status(http, port, "/readyz") == 200;
              });
      System.out.printf(
          "[images-test] controller image ready in %.1f s%n", (System.nanoTime() - t0) / 1e9);
      assertThat(status(http, management, "/actuator/health/readiness")).isEqualTo(200);
      assertThat(c.getLogs()).contains("started by nonroot");
    }
  }

  /**
   * Spring Boot's failure report: the description names the setting and what is wrong, the action
   * what to do.
   */
  @DocClaim(
      "docs/install.md: a missing kubeconfig prints `cannot read the kubeconfig <path> (ISOLATO_KUBECONFIG): no such file`")
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      missing kubeconfig     | ISOLATO_KUBECONFIG                   | /config/absent | cannot read the kubeconfig /config/absent (ISOLATO_KUBECONFIG): no such file | Point ISOLATO_KUBECONFIG (isolato.kubeconfig) at a readable kubeconfig file
      invalid lease duration | ISOLATO_LEADERELECTION_LEASEDURATION | ten-seconds    | Failed to bind properties under 'isolato.leader-election.lease-duration' to java.time.Duration | Origin: System Environment Property "ISOLATO_LEADERELECTION_LEASEDURATION"
      """)
  void exitsWithAClearMessageOnBadConfiguration(
      String what, String variable, String value, String description, String detail) {
    try (var c =
        controller(LocalImages.freePort(), LocalImages.freePort(), Map.of(variable, value))) {
      c.start();
      assertThat(LocalImages.awaitExit(c, JVM_START)).as("exit code").isNotZero();
      String log = c.getLogs();
      assertThat(log)
          .as(log)
          .contains("APPLICATION FAILED TO START")
          .containsPattern("(?m)^" + Pattern.quote(description))
          .contains(detail)
          .doesNotContain("\tat ");
    }
  }

  private static int status(HttpClient http, int port, String path) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }
}
