package dev.isolato.tuner;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.isolato.pipeline.Parameter;
import dev.isolato.pipeline.ParameterCatalog;
import dev.isolato.pipeline.Rules;
import dev.isolato.pipeline.WorkloadShape;
import dev.isolato.pipeline.run.Analysis;
import dev.isolato.pipeline.run.ClusterSettings;
import dev.isolato.pipeline.run.CpuMeter;
import dev.isolato.pipeline.run.DeploymentBenchmark;
import dev.isolato.pipeline.run.PipelineAnalyses;
import dev.isolato.pipeline.run.PipelineBenchmark;
import dev.isolato.pipeline.run.PipelineProperties;
import dev.isolato.pipeline.run.TuningLoop;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.LoggerFactory;

/**
 * {@code make tune}: the tuning loop on localkube from the command line, one progress line per
 * step, the analysis as JSON at the end.
 *
 * <pre>
 * TuneMain --localkube PATH [--workloads J] [--pods P] [--containers C] [--max-changes N]
 *          [--repeats R] [--single-runs S] [--timeout SECONDS] [--node-label KEY=VALUE]
 *          [--start KEY=VALUE,…] [--restore] [--out FILE]
 * TuneMain --localkube PATH --path tenants|scale|class --controller-jar JAR --api URL
 *          --token-file FILE [--workloads J] [--pods P] [--class NAME] [--image IMAGE] [--controller-log FILE]
 *          [--max-changes N] [--repeats R] [--single-runs S] [--start KEY=VALUE,…] [--restore]
 * </pre>
 *
 * {@code --start} sets localkube's throughput limits before the first run, e.g. Kubernetes'
 * defaults where localkube's differ ({@code controller-manager.kube-api-qps=20}); the analysis
 * records them ({@link Analysis#startedFrom}) and {@code --restore} undoes them with the loop's
 * changes.
 *
 * <p>{@code --repeats R} runs the shape R times per iteration and takes the median run (default 1).
 * {@code --single-runs S}: the model's single-pod input is the fastest of S runs (default 3).
 *
 * <p>{@code --path} tunes one of Isolato's own paths ({@link IsolatoPathBenchmark}): J dedicated
 * tenants onboarded at once (default 50), a pool scaled by P pods (default 9), or a new class with
 * a pool of P pods (default 9); the controller jar runs as a child process serving {@code --api}
 * with the admin token of {@code --token-file}, and is restarted to apply an {@code isolato.*}
 * setting.
 *
 * <p>{@code --node-label} runs the pods only on the nodes with that label, tolerating its
 * NoSchedule taint (KWOK's fake nodes: {@code --node-label isolato.dev/kwok-node=true}). {@code
 * --restore} undoes the settings the loop changed (for the reduced run of `make test`). Exit status
 * 0 when the analysis finished, 1 when it failed, 2 on bad arguments.
 */
public final class TuneMain {

  private TuneMain() {}

  /** Every option it reads: a misspelt one is refused instead of silently left at its default. */
  private static final Set<String> OPTIONS =
      Set.of(
          "api",
          "class",
          "containers",
          "controller-jar",
          "controller-log",
          "image",
          "isolato-namespace",
          "localkube",
          "max-changes",
          "node-label",
          "out",
          "path",
          "pods",
          "repeats",
          "restore",
          "single-runs",
          "start",
          "timeout",
          "token-file",
          "workloads");

  public static void main(String[] args) throws Exception {
    ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
        .setLevel(Level.WARN);
    // Isolato's own CRDs are v1alpha1 on purpose; the warning about it is noise in progress lines
    ((ch.qos.logback.classic.Logger)
            LoggerFactory.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils"))
        .setLevel(Level.ERROR);
    Map<String, String> opt = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--restore")) {
        opt.put("restore", "true");
      } else if (args[i].startsWith("--") && OPTIONS.contains(args[i].substring(2))) {
        if (i + 1 == args.length) {
          usage(args[i] + " needs a value");
        }
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
    Optional<IsolatoPathBenchmark.Path> path;
    Map<Parameter, Double> start;
    try {
      start =
          opt.containsKey("start")
              ? ParameterCatalog.localkubeSettings(opt.get("start"))
              : Map.of();
      nodes = Optional.ofNullable(opt.get("node-label")).map(DeploymentBenchmark.NodeLabel::parse);
      path = Optional.ofNullable(opt.get("path")).map(TuneMain::path);
      shape =
          path.isPresent()
              ? IsolatoPathBenchmark.shape(
                  path.get(), num(opt, "workloads", 25), num(opt, "pods", 9))
              : new WorkloadShape(
                  num(opt, "workloads", 1), num(opt, "pods", 100), num(opt, "containers", 1));
      if (path.isPresent()) {
        for (String needed : List.of("controller-jar", "api", "token-file")) {
          if (!opt.containsKey(needed)) {
            throw new IllegalArgumentException("--path needs --" + needed);
          }
        }
      }
      maxChanges = num(opt, "max-changes", 5);
      TuningLoop.requireRepeats(num(opt, "repeats", 1));
      TuningLoop.requireSingleRuns(num(opt, "single-runs", TuningLoop.SINGLE_RUNS));
      timeout = Duration.ofSeconds(num(opt, "timeout", 180));
    } catch (IllegalArgumentException e) {
      usage(e.getMessage());
      return;
    }
    LocalkubeSettings localkube = new LocalkubeSettings(Path.of(opt.get("localkube")));
    PipelineProperties props = new PipelineProperties(opt.get("localkube"), null, timeout, 0, 0);
    String id = "t" + Long.toString(System.currentTimeMillis() % 1_000_000, 36);
    Analysis a;
    try (KubernetesClient client = new KubernetesClientBuilder().build()) {
      CpuMeter meter = CpuMeter.localkube(PipelineAnalyses.localkubeHome());
      a =
          path.isPresent()
              ? onIsolatosPath(
                  opt, path.get(), client, localkube, start, meter, id, shape, maxChanges, timeout)
              : loop(
                  new DeploymentBenchmark(client, props, meter, nodes),
                  localkube,
                  localkube,
                  start,
                  opt,
                  id,
                  shape,
                  maxChanges);
    } catch (IllegalStateException e) {
      // a path's set-up or clean-up (the controller, its class) failed outside the loop
      System.out.println("[tune] FAILED: " + e.getMessage());
      System.exit(1);
      return;
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

  /**
   * The loop, from {@code start} set on localkube ({@code settings} restores them with its own
   * changes: it is {@code localkube} or wraps it).
   */
  private static Analysis loop(
      PipelineBenchmark bench,
      ClusterSettings settings,
      LocalkubeSettings localkube,
      Map<Parameter, Double> start,
      Map<String, String> opt,
      String id,
      WorkloadShape shape,
      int maxChanges) {
    try {
      Map<String, Double> from = new LinkedHashMap<>();
      start.forEach((p, v) -> from.put(p.id(), v));
      if (!start.isEmpty()) {
        System.out.println("[tune] starting from " + localkube.start(start));
      }
      return new TuningLoop(bench, settings, Rules.kubernetes134(), num(opt, "repeats", 1))
          .withSingleRuns(num(opt, "single-runs", TuningLoop.SINGLE_RUNS))
          .run(id, shape, maxChanges, line -> System.out.println("[tune] " + line), x -> {})
          .startingFrom(from);
    } finally {
      if (opt.containsKey("restore")) {
        System.out.println("[tune] restoring the settings the loop changed");
        settings.restore();
      }
    }
  }

  /**
   * The loop on one of Isolato's paths: the controller runs as this process's child, on a class of
   * the benchmark's own, both removed at the end.
   */
  private static Analysis onIsolatosPath(
      Map<String, String> opt,
      IsolatoPathBenchmark.Path path,
      KubernetesClient client,
      LocalkubeSettings localkube,
      Map<Parameter, Double> start,
      CpuMeter meter,
      String id,
      WorkloadShape shape,
      int maxChanges,
      Duration timeout)
      throws Exception {
    IsolatoApi api =
        new IsolatoApi(
            URI.create(opt.get("api")), Files.readString(Path.of(opt.get("token-file"))).strip());
    Path log =
        opt.containsKey("controller-log")
            ? Path.of(opt.get("controller-log"))
            : Files.createTempFile("isolato-tune-controller", ".log");
    if (log.getParent() != null) {
      Files.createDirectories(log.getParent());
    }
    System.out.println("[tune] Isolato's controller logs to " + log);
    try (ControllerProcess controller =
        new ControllerProcess(Path.of(opt.get("controller-jar")), log, api)) {
      IsolatoSettings settings = new IsolatoSettings(localkube, controller);
      settings.startController();
      try (IsolatoPathBenchmark bench =
          new IsolatoPathBenchmark(
              client,
              api,
              path,
              opt.getOrDefault("class", "tune"),
              opt.getOrDefault("image", "localhost/isolato/saas-bench:dev"),
              opt.getOrDefault("isolato-namespace", "isolato-system"),
              meter,
              controller::pid,
              timeout)) {
        bench.prepare();
        return loop(bench, settings, localkube, start, opt, id, shape, maxChanges);
      }
    }
  }

  private static IsolatoPathBenchmark.Path path(String name) {
    try {
      return IsolatoPathBenchmark.Path.valueOf(name.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--path must be tenants, scale or class, was '" + name + "'");
    }
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
            + " [--max-changes N] [--repeats R] [--single-runs S] [--timeout SECONDS]"
            + " [--node-label KEY=VALUE]"
            + " [--start KEY=VALUE,…] [--restore] [--out FILE]"
            + "\n       TuneMain --localkube PATH --path tenants|scale|class --controller-jar JAR --api URL"
            + " --token-file FILE [--workloads J] [--pods P] [--max-changes N] [--repeats R]"
            + " [--single-runs S]"
            + " [--start KEY=VALUE,…] [--restore] [--out FILE]");
    System.exit(2);
  }
}
