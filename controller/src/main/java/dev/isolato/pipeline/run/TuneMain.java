package dev.isolato.pipeline.run;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.isolato.pipeline.Rules;
import dev.isolato.pipeline.WorkloadShape;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * {@code make tune}: the tuning loop on localkube from the command line, one progress line per
 * step, the analysis as JSON at the end.
 *
 * <pre>
 * TuneMain --localkube PATH [--workloads J] [--pods P] [--containers C] [--max-changes N]
 *          [--timeout SECONDS] [--node-label KEY=VALUE] [--restore] [--out FILE]
 * </pre>
 *
 * {@code --node-label} runs the pods only on the nodes with that label, tolerating its NoSchedule
 * taint (KWOK's fake nodes: {@code --node-label isolato.dev/kwok-node=true}). {@code --restore}
 * undoes the settings the loop changed (for the reduced run of `make test`). Exit status 0 when the
 * analysis finished, 1 when it failed, 2 on bad arguments.
 */
public final class TuneMain {

  private TuneMain() {}

  public static void main(String[] args) throws Exception {
    ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
        .setLevel(Level.WARN);
    Map<String, String> opt = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--restore")) {
        opt.put("restore", "true");
      } else if (args[i].startsWith("--") && i + 1 < args.length) {
        opt.put(args[i].substring(2), args[++i]);
      } else {
        usage("unexpected argument '" + args[i] + "'");
      }
    }
    if (!opt.containsKey("localkube")) {
      usage("--localkube PATH is required (the localkube script)");
    }
    WorkloadShape shape;
    int maxChanges;
    Duration timeout;
    Optional<DeploymentBenchmark.NodeLabel> nodes;
    try {
      nodes = Optional.ofNullable(opt.get("node-label")).map(DeploymentBenchmark.NodeLabel::parse);
      shape =
          new WorkloadShape(
              num(opt, "workloads", 1), num(opt, "pods", 100), num(opt, "containers", 1));
      maxChanges = num(opt, "max-changes", 5);
      timeout = Duration.ofSeconds(num(opt, "timeout", 180));
    } catch (IllegalArgumentException e) {
      usage(e.getMessage());
      return;
    }
    LocalkubeSettings settings = new LocalkubeSettings(Path.of(opt.get("localkube")));
    PipelineProperties props = new PipelineProperties(opt.get("localkube"), null, timeout, 0, 0);
    Analysis a;
    try (KubernetesClient client = new KubernetesClientBuilder().build()) {
      TuningLoop loop =
          new TuningLoop(
              new DeploymentBenchmark(
                  client, props, CpuMeter.localkube(PipelineAnalyses.localkubeHome()), nodes),
              settings,
              Rules.kubernetes134());
      String id = "t" + Long.toString(System.currentTimeMillis() % 1_000_000, 36);
      a = loop.run(id, shape, maxChanges, line -> System.out.println("[tune] " + line), x -> {});
    } finally {
      if (opt.containsKey("restore")) {
        System.out.println("[tune] restoring localkube's settings");
        settings.restore();
      }
    }
    String json =
        JsonMapper.builder()
            .findAndAddModules()
            .build()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .writeValueAsString(a);
    if (opt.containsKey("out")) {
      Path out = Path.of(opt.get("out"));
      if (out.getParent() != null) {
        Files.createDirectories(out.getParent());
      }
      Files.writeString(out, json + "\n");
      System.out.println("[tune] analysis written to " + out);
    }
    System.out.println(
        "[tune] "
            + a.status()
            + ": "
            + (a.status() == Analysis.Status.DONE ? a.outcome() : a.error()));
    System.exit(a.status() == Analysis.Status.DONE ? 0 : 1);
  }

  private static int num(Map<String, String> opt, String key, int dflt) {
    String v = opt.get(key);
    try {
      return v == null ? dflt : Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + key + " must be an integer, was '" + v + "'");
    }
  }

  private static void usage(String why) {
    System.err.println(
        "tune: "
            + why
            + "\nusage: TuneMain --localkube PATH [--workloads J] [--pods P] [--containers C]"
            + " [--max-changes N] [--timeout SECONDS] [--node-label KEY=VALUE] [--restore] [--out FILE]");
    System.exit(2);
  }
}
