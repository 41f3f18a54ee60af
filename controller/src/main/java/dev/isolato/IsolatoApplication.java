package dev.isolato;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Entry point of the Isolato controller: REST API, reconcilers and models in one service. */
@SpringBootApplication
public class IsolatoApplication {
  /**
   * The common pool's size unless the JVM options set one. On a 2-CPU node the JDK sizes it 1, and
   * then every CompletableFuture stage run "async" without an executor (the Kubernetes client's
   * response handling does so) gets a new unnamed thread of its own: a 10,000-tenant run created
   * ~20,000 {@code Thread-N} in a minute (docs/scale.md).
   */
  static final String COMMON_POOL_THREADS = "4";

  public static void main(String[] args) {
    // before anything touches ForkJoinPool or CompletableFuture, which read it once
    if (System.getProperty("java.util.concurrent.ForkJoinPool.common.parallelism") == null) {
      System.setProperty(
          "java.util.concurrent.ForkJoinPool.common.parallelism", COMMON_POOL_THREADS);
    }
    SpringApplication app = new SpringApplication(IsolatoApplication.class);
    StartupSteps steps = StartupSteps.fromSystemProperty();
    if (steps != null) {
      app.setApplicationStartup(steps.startup());
    }
    app.run(args);
    if (steps != null) {
      steps.write();
    }
  }
}
