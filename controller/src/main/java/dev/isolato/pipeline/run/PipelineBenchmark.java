package dev.isolato.pipeline.run;

import dev.isolato.pipeline.ComponentSteps;
import dev.isolato.pipeline.Hardware;
import dev.isolato.pipeline.Measure;
import dev.isolato.pipeline.Milestone;
import dev.isolato.pipeline.Stage;
import dev.isolato.pipeline.Step;
import dev.isolato.pipeline.Timeline;
import dev.isolato.pipeline.WorkloadShape;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the tuning loop measures: a workload shape deployed on the cluster until every new pod is
 * Ready, traced stage by stage. Pause-pod Deployments ({@link DeploymentBenchmark}) or Isolato's
 * own paths (the tuner's {@code IsolatoPathBenchmark}, tuner/).
 */
public interface PipelineBenchmark {

  /** The model's N, U_c and U_w for this cluster. */
  Hardware hardware();

  /**
   * Deploys {@code shape}, waits until its pods are Ready, and removes it again, so that the next
   * run starts from the same state. A 1 × 1 × 1 shape is the model's single-pod input.
   */
  Run run(WorkloadShape shape, String name) throws InterruptedException;

  /**
   * The cluster's CPU with nothing of this benchmark deployed, over {@link #IDLE_WINDOW}: the rate
   * a run's own work is counted above. Not measured unless the benchmark reads CPU.
   */
  default CpuMeter.Usage idle() throws InterruptedException {
    return CpuMeter.Usage.none();
  }

  /**
   * Long enough that the control plane's periodic work (leases every 2 s, the node's status every
   * 10 s) weighs about as much as in a run.
   */
  java.time.Duration IDLE_WINDOW = java.time.Duration.ofSeconds(10);

  /** What {@code shape} deploys here, in words: "1 Deployment × 100 pods, 1 container each". */
  default String workload(WorkloadShape shape) {
    return deployments(shape);
  }

  /** {@code shape} as plain Deployments. */
  static String deployments(WorkloadShape shape) {
    return String.format(
        java.util.Locale.ROOT,
        "%d Deployment%s × %d pods, %d container%s each",
        shape.workloads(),
        shape.workloads() == 1 ? "" : "s",
        shape.podsPerWorkload(),
        shape.containersPerPod(),
        shape.containersPerPod() == 1 ? "" : "s");
  }

  /** Parameter ids whose change this benchmark cannot show; the loop never proposes them. */
  Set<String> notExercised();

  /**
   * One measured run.
   *
   * @param stages seconds per stage along the critical path, ending at the last pod's Ready
   * @param seconds the first write to the last pod Ready
   * @param steps what the components timed themselves: S5's and S6's steps (the kubelets), S1–S4's
   *     and S7's (the control plane, on localkube), the clients' rate-limiter waits
   * @param createSpanSeconds S3 up to the last pod's creation (traced): from the ReplicaSet to the
   *     last of its pods, the span a client's token bucket stretches; null when not traced
   */
  record Run(
      WorkloadShape shape,
      Map<Stage, Double> stages,
      double seconds,
      CpuMeter.Usage cpu,
      ComponentSteps steps,
      Double createSpanSeconds) {

    Run(WorkloadShape shape, Map<Stage, Double> stages, double seconds, CpuMeter.Usage cpu) {
      this(shape, stages, seconds, cpu, ComponentSteps.NONE, null);
    }

    Run(
        WorkloadShape shape,
        Map<Stage, Double> stages,
        double seconds,
        CpuMeter.Usage cpu,
        ComponentSteps steps) {
      this(shape, stages, seconds, cpu, steps, null);
    }

    /** {@link #createSpanSeconds} of these pods' timelines; null when no pod was seen created. */
    public static Double createSpan(List<Timeline> timelines) {
      return Timeline.criticalPath(timelines, Milestone.POD_CREATED).get(Stage.S3);
    }

    /** S5's and S6's steps as the kubelets timed them (empty: not measured). */
    Map<Step, Measure> kubeletSteps() {
      return steps.kubelet();
    }
  }
}
