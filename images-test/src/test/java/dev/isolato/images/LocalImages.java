package dev.isolato.images;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.utility.DockerImageName;

/**
 * Containers of the images {@code images-test/run.sh} built into podman's store (nothing can be
 * pulled here). They run on the host's network and listen on loopback only: no port mapping, so
 * podman adds no bridge and no iptables rules next to localkube's. Ryuk is off, so every test
 * closes its containers (try-with-resources); each carries {@link #RUN_LABEL} so that run.sh can
 * find any a crashed JVM left behind.
 */
final class LocalImages {
  static final DockerImageName SAAS_BENCH =
      image("isolato.images.saasBench", "localhost/isolato/saas-bench:image-test");
  static final DockerImageName CONTROLLER =
      image("isolato.images.controller", "localhost/isolato/controller:image-test");
  static final String RUN_LABEL = "dev.isolato.image-test.run";
  private static final String RUN = System.getProperty("isolato.images.run", "adhoc");

  private LocalImages() {}

  /** A container of {@code image} on the host network with a read-only root filesystem. */
  static GenericContainer<?> readOnlyOnHostNetwork(DockerImageName image) {
    GenericContainer<?> c = new GenericContainer<>(image);
    c.withNetworkMode("host")
        .withLabel(RUN_LABEL, RUN)
        .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withReadonlyRootfs(true));
    return c;
  }

  /**
   * Start returns once the container runs, or has already exited (a start-up failure is what some
   * tests want).
   */
  static StartupCheckStrategy runningOrExited() {
    return new StartupCheckStrategy() {
      @Override
      public StartupStatus checkStartupState(DockerClient docker, String containerId) {
        return StartupStatus.SUCCESSFUL;
      }
    };
  }

  static DockerClient docker() {
    return DockerClientFactory.instance().client();
  }

  static void signal(GenericContainer<?> c, String signal) {
    docker().killContainerCmd(c.getContainerId()).withSignal(signal).exec();
  }

  /** The exit code, waiting at most {@code max} for the container to stop. */
  static int awaitExit(GenericContainer<?> c, Duration max) {
    return docker()
        .waitContainerCmd(c.getContainerId())
        .exec(new WaitContainerResultCallback())
        .awaitStatusCode(max.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The user the image's config runs its entrypoint as. */
  static String configuredUser(DockerImageName image) {
    return docker().inspectImageCmd(image.asCanonicalNameString()).exec().getConfig().getUser();
  }

  /** A loopback port free right now (the container binds it a moment later). */
  static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static DockerImageName image(String property, String fallback) {
    return DockerImageName.parse(System.getProperty(property, fallback));
  }
}
