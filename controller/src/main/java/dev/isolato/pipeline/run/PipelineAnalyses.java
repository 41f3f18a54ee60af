package dev.isolato.pipeline.run;

import dev.isolato.pipeline.Rules;
import dev.isolato.pipeline.WorkloadShape;
import io.fabric8.kubernetes.client.KubernetesClient;
import jakarta.annotation.PreDestroy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Service;

/**
 * Runs analyses one at a time in the background (a benchmark takes minutes and loads the cluster:
 * two at once would measure each other) and keeps the last {@code isolato.pipeline.history} in
 * memory.
 */
@Service
@EnableConfigurationProperties(PipelineProperties.class)
public class PipelineAnalyses {
  private static final Logger log = LoggerFactory.getLogger(PipelineAnalyses.class);

  private final TuningLoop loop;
  private final int history;
  private final ExecutorService worker =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "pipeline-analysis");
            t.setDaemon(true);
            return t;
          });
  private final Map<String, Analysis> analyses = Collections.synchronizedMap(new LinkedHashMap<>());
  private String running;

  public PipelineAnalyses(KubernetesClient client, PipelineProperties props) {
    boolean localkube = !props.localkube().isBlank();
    CpuMeter cpu = localkube ? CpuMeter.localkube(localkubeHome()) : CpuMeter.unavailable();
    // The product changes no control plane, localkube's neither: it recommends, and the tuner
    // (tuner/, `make tune`) is what applies localkube's settings
    this.loop =
        new TuningLoop(
            new DeploymentBenchmark(client, props, cpu),
            ClusterSettings.shared(),
            Rules.kubernetes134());
    this.history = props.history();
  }

  /** $LOCALKUBE_HOME as the localkube script resolves it. */
  public static Path localkubeHome() {
    String home = System.getenv("LOCALKUBE_HOME");
    return Path.of(home == null || home.isBlank() ? "/var/lib/localkube" : home);
  }

  /**
   * Starts an analysis whose iterations each measure the median of {@code repeats} runs, or empty
   * when one is running (the caller answers 409).
   */
  public synchronized Optional<Analysis> start(WorkloadShape shape, int maxChanges, int repeats) {
    TuningLoop measured = loop.withRepeats(repeats);
    if (running != null) {
      return Optional.empty();
    }
    String id = UUID.randomUUID().toString().substring(0, 8);
    running = id;
    Analysis first =
        Analysis.started(id, PipelineBenchmark.deployments(shape), shape, maxChanges, "pending");
    put(first);
    // execute, not submit: nothing reads a future, and an unexpected Throwable reaches the
    // thread's uncaught-exception handler instead of vanishing in one
    worker.execute(
        () -> {
          try {
            put(
                measured.run(
                    id, shape, maxChanges, line -> log.info("pipeline {}", line), this::put));
          } finally {
            synchronized (this) {
              running = null;
            }
          }
        });
    return Optional.of(first);
  }

  public synchronized Optional<String> running() {
    return Optional.ofNullable(running);
  }

  public Optional<Analysis> find(String id) {
    return Optional.ofNullable(analyses.get(id));
  }

  /** Newest first. */
  public List<Analysis> all() {
    List<Analysis> out;
    synchronized (analyses) {
      out = new ArrayList<>(analyses.values());
    }
    Collections.reverse(out);
    return out;
  }

  private void put(Analysis a) {
    synchronized (analyses) {
      analyses.put(a.id(), a);
      while (analyses.size() > history) {
        analyses.remove(analyses.keySet().iterator().next());
      }
    }
  }

  @PreDestroy
  void stop() {
    worker.shutdownNow();
  }
}
