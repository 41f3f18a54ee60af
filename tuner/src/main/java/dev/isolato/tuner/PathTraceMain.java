package dev.isolato.tuner;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.isolato.pipeline.DeploymentTracer;
import dev.isolato.pipeline.Hardware;
import dev.isolato.pipeline.Milestone;
import dev.isolato.pipeline.Parameter;
import dev.isolato.pipeline.Rules;
import dev.isolato.pipeline.Stage;
import dev.isolato.pipeline.StageComparison;
import dev.isolato.pipeline.Timeline;
import dev.isolato.pipeline.TuningStep;
import dev.isolato.pipeline.WorkloadShape;
import dev.isolato.pipeline.run.Analysis;
import dev.isolato.pipeline.run.ComponentMeter;
import dev.isolato.pipeline.run.CpuMeter;
import dev.isolato.pipeline.run.DeploymentBenchmark;
import dev.isolato.pipeline.run.KubeletMeter;
import dev.isolato.pipeline.run.PipelineAnalyses;
import dev.isolato.pipeline.run.PipelineProperties;
import dev.isolato.pipeline.run.PoolTrace;
import dev.isolato.pipeline.run.TuningLoop;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * Traces Isolato's own deployment paths (a new class, dedicated tenants onboarded, a pool scaled)
 * for {@code bench/sh/tenants-bench.sh} (isolato-bench tenants), which drives them through
 * Isolato's API and tells this process when each begins and ends, one command per line on stdin:
 *
 * <pre>
 * start NAME               trace from now (what exists is the baseline); answers "ready NAME"
 * stop NAME J P [INPUT]    J pools × P new pods expected Ready; answers one "[trace] NAME: …" line
 * </pre>
 *
 * Every saas-bench Deployment Isolato creates or changes after {@code start} is traced with its
 * namespace ({@link DeploymentTracer#inAnyNamespace}); the path's stages are the critical path's
 * ({@link Timeline#criticalPath}), S1 counted from {@code start}, i.e. the API call, and split at
 * the namespace's arrival (Isolato's reconcile before its first write, then up to the Deployment).
 * With INPUT (an earlier path of one pool × one pod) the model's best case for J × P, the
 * bottleneck and the loop's decision are added. At the end of stdin the paths are written as JSON
 * to {@code --out}.
 *
 * <pre>
 * PathTraceMain --localkube PATH --out FILE [--timeout SECONDS] [--client-pid PID]
 *               [--pod-cpu-millis L] [--set isolato.KEY=VALUE]...
 * </pre>
 *
 * {@code --pod-cpu-millis} is the pools' CPU limit per pod, for the model ({@link
 * WorkloadShape#podCpuLimitMillis}; 0, the default: none).
 *
 * <p>{@code --client-pid} names Isolato's controller process: the paths' client, whose CPU counts
 * with the control plane's for S1 in the CPU-bound rule ({@link TuningStep.Cpu#bound}).
 */
public final class PathTraceMain {

  /** One traced path. */
  public record TracedPath(
      String name,
      int workloads,
      int pods,
      long readyPods,
      double tracedSeconds,
      Map<Stage, Double> stages,
      Timeline.NamespaceSplit s1Split,
      String input,
      Double predictedSeconds,
      Map<Stage, Double> predicted,
      boolean s5AndS6Merged,
      CpuMeter.Usage cpu,
      Analysis.BottleneckView bottleneck,
      TuningStep.Decision decision,
      Analysis.Change recommendation) {}

  private final KubernetesClient client;
  private final CpuMeter meter;
  private final Hardware hardware;
  private final Map<String, Double> current;
  private final Duration timeout;
  private final int podCpuLimitMillis;
  private final Map<String, TracedPath> done = new LinkedHashMap<>();
  private PoolTrace trace;

  PathTraceMain(
      KubernetesClient client,
      CpuMeter meter,
      Hardware hardware,
      Map<String, Double> current,
      Duration timeout,
      int podCpuLimitMillis) {
    this.client = client;
    this.meter = meter;
    this.hardware = hardware;
    this.current = current;
    this.timeout = timeout;
    this.podCpuLimitMillis = podCpuLimitMillis;
  }

  public static void main(String[] args) throws Exception {
    ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
        .setLevel(Level.ERROR);
    String localkube = null;
    String out = null;
    int timeout = 120;
    Long clientPid = null;
    int podCpuMillis = 0;
    Map<String, Double> set = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--localkube" -> localkube = args[i + 1];
        case "--out" -> out = args[i + 1];
        case "--timeout" -> timeout = Integer.parseInt(args[i + 1]);
        case "--client-pid" -> clientPid = Long.parseLong(args[i + 1]);
        case "--pod-cpu-millis" -> podCpuMillis = Integer.parseInt(args[i + 1]);
        case "--set" -> {
          String[] kv = args[i + 1].split("=", 2);
          if (kv.length != 2) {
            usage("--set needs KEY=VALUE, was '" + args[i + 1] + "'");
          }
          set.put(kv[0], Double.parseDouble(kv[1]));
        }
        default -> usage("unexpected argument '" + args[i] + "'");
      }
    }
    if (localkube == null || out == null || args.length % 2 != 0) {
      usage("--localkube PATH and --out FILE are required");
    }
    try (KubernetesClient client = new KubernetesClientBuilder().build()) {
      CpuMeter localkubeMeter = CpuMeter.localkube(PipelineAnalyses.localkubeHome());
      CpuMeter meter = clientPid == null ? localkubeMeter : localkubeMeter.withClient(clientPid);
      Hardware h =
          DeploymentBenchmark.hardware(client, PipelineProperties.defaults(), Optional.empty());
      Map<String, Double> current =
          new HashMap<>(new LocalkubeSettings(Path.of(localkube)).current());
      current.putAll(set);
      PathTraceMain m =
          new PathTraceMain(client, meter, h, current, Duration.ofSeconds(timeout), podCpuMillis);
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        System.out.println(m.command(line.strip().split("\\s+", -1)));
        System.out.flush();
      }
      m.close();
      Path file = Path.of(out);
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      Files.writeString(
          file,
          JsonMapper.builder()
                  .findAndAddModules()
                  .build()
                  .enable(SerializationFeature.INDENT_OUTPUT)
                  .writeValueAsString(m.done.values())
              + "\n");
    }
  }

  String command(String[] c) throws InterruptedException {
    try {
      return switch (c[0]) {
        case "start" -> start(c[1]);
        case "stop" ->
            line(
                stop(
                    c[1],
                    Integer.parseInt(c[2]),
                    Integer.parseInt(c[3]),
                    c.length > 4 ? c[4] : null));
        default -> "error unknown command '" + c[0] + "' (start NAME | stop NAME J P [INPUT])";
      };
    } catch (RuntimeException e) {
      return "error " + String.join(" ", c) + ": " + e.getMessage();
    }
  }

  String start(String name) {
    close();
    trace =
        PoolTrace.start(
            client, meter, ComponentMeter.of(client, KubeletMeter.unavailable(), false));
    return "ready " + name;
  }

  TracedPath stop(String name, int workloads, int pods, String input) throws InterruptedException {
    if (trace == null) {
      throw new IllegalStateException("stop before start");
    }
    WorkloadShape shape = new WorkloadShape(workloads, pods, 1, podCpuLimitMillis);
    PoolTrace.Result r = trace.await(shape.pods(), timeout);
    close();
    Map<Stage, Double> stages = r.stages();
    CpuMeter.Usage cpu = r.cpu();
    Timeline.NamespaceSplit split =
        Timeline.slowest(r.timelines(), Milestone.POD_READY)
            .flatMap(Timeline::namespaceSplit)
            .orElse(null);
    TracedPath in = input == null ? null : done.get(input);
    StageComparison cmp = null;
    TuningStep step = null;
    if (in != null && !stages.isEmpty()) {
      cmp = StageComparison.of(stages, in.stages(), shape, hardware);
      step =
          TuningStep.decide(
              1,
              cmp.measured(),
              cmp.compared(),
              new TuningStep.Cpu(cpu.controlPlane(), cpu.node(), cpu.client(), cpu.measured()),
              shape,
              hardware,
              current,
              Parameter.Cluster.LOCALKUBE,
              Rules.kubernetes134());
    }
    TracedPath p =
        new TracedPath(
            name,
            workloads,
            pods,
            r.readyPods(),
            r.seconds(),
            stages,
            split,
            cmp == null ? null : input,
            cmp == null ? null : cmp.predicted().total(),
            cmp == null ? null : cmp.predicted().byStage(),
            cmp != null && cmp.s5AndS6Merged(),
            cpu,
            step == null ? null : step.bottleneck().map(Analysis.BottleneckView::of).orElse(null),
            step == null ? null : step.decision(),
            step == null ? null : step.recommendation().map(Analysis.Change::of).orElse(null));
    done.put(name, p);
    return p;
  }

  void close() {
    if (trace != null) {
      trace.close();
      trace = null;
    }
  }

  static String line(TracedPath p) {
    StringBuilder s =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "[trace] %s: %d × %d pods, %d Ready, %.2f s traced;",
                p.name(),
                p.workloads(),
                p.pods(),
                p.readyPods(),
                p.tracedSeconds()));
    s.append(TuningLoop.stages(p.stages(), p.predicted()));
    if (p.s1Split() != null) {
      s.append(
          String.format(
              Locale.ROOT,
              "; S1 = call → namespace %.2f + namespace → Deployment %.2f",
              p.s1Split().toNamespace(),
              p.s1Split().toWorkload()));
    }
    if (p.predictedSeconds() != null) {
      s.append(
          String.format(
              Locale.ROOT, "; best case %.2f s (input: %s)", p.predictedSeconds(), p.input()));
    }
    s.append("; ").append(p.cpu());
    if (p.bottleneck() != null) {
      s.append("; bottleneck ").append(p.bottleneck());
    }
    if (p.decision() != null) {
      s.append("; ").append(p.decision());
    }
    if (p.recommendation() != null) {
      s.append(": ").append(p.recommendation());
    }
    return s.toString();
  }

  private static void usage(String why) {
    System.err.println(
        "trace: "
            + why
            + "\nusage: PathTraceMain --localkube PATH --out FILE [--timeout SECONDS]"
            + " [--client-pid PID] [--pod-cpu-millis L] [--set isolato.KEY=VALUE]...");
    System.exit(2);
  }
}
