package dev.isolato.tuner;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Isolato's controller as a child process on this host, the client of the paths the loop tunes: its
 * {@code isolato.*} settings are system properties, read at start-up, so changing one restarts it.
 * The environment (port, token file, KUBECONFIG) is this process's. Stopped by its own handle:
 * SIGTERM, so that it hands its lease over, then SIGKILL if it does not end.
 */
final class ControllerProcess implements AutoCloseable {

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private final Path jar;
  private final Path log;
  private final IsolatoApi api;
  private Process process;

  ControllerProcess(Path jar, Path log, IsolatoApi api) {
    this.jar = jar;
    this.log = log;
    this.api = api;
  }

  /** (Re)starts the controller with {@code properties} and waits until it is ready. */
  synchronized void start(Map<String, String> properties) throws InterruptedException {
    close();
    List<String> cmd = new ArrayList<>(List.of(javaBinary()));
    new TreeMap<>(properties).forEach((k, v) -> cmd.add("-D" + k + "=" + v));
    cmd.addAll(List.of("-jar", jar.toString()));
    try {
      process =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start the controller " + jar + ": " + e, e);
    }
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (!api.ready()) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the controller exited (" + process.exitValue() + ") before it was ready; log: " + log);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the controller was not ready on "
                + api.base()
                + " within "
                + READY_TIMEOUT.toSeconds()
                + " s; log: "
                + log);
      }
      Thread.sleep(200);
    }
  }

  /** Its PID, for the CPU meter. */
  synchronized long pid() {
    if (process == null) {
      throw new IllegalStateException("the controller is not running");
    }
    return process.pid();
  }

  @Override
  public synchronized void close() throws InterruptedException {
    if (process == null) {
      return;
    }
    process.destroy();
    if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    process = null;
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
