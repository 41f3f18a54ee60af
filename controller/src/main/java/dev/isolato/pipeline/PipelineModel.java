package dev.isolato.pipeline;

import java.util.EnumMap;
import java.util.Map;

/**
 * Columbo's first-order best-case model (Jansen et al., ICPE'25, Section 4). Inputs are the step
 * times of a single deployed container (Section 4.8); the model assumes no configuration limit,
 * only cores: each step execution takes one core, so a stage's work is spread in rounds over U_c
 * control-plane cores or N·U_w worker cores.
 */
public final class PipelineModel {

  private PipelineModel() {}

  /**
   * Time of one execution of a stage, equations (1)–(6). Equation (6) sums T_cc,i and T_sc,i + T_w
   * over the pod's containers; the paper writes Σ_{i=0}^{C}, which would be C+1 terms — read as C
   * containers, each costing what the single measured container cost.
   */
  public static double stageTime(Breakdown single, Stage stage, int containersPerPod) {
    WorkloadShape.positive("containersPerPod (C)", containersPerPod);
    double t = 0;
    for (Step step : Step.values()) {
      if (step.stage() == stage) {
        t += single.of(step) * (step.perContainer() ? containersPerPod : 1);
      }
    }
    return t;
  }

  /**
   * How many rounds a stage runs for a workload, the ceilings of equation (7): ⌈J/U_c⌉ for S1–S2,
   * ⌈J·P/U_c⌉ for S3–S4, ⌈J·P/(N·U_w)⌉ for S5–S6 (U_w: {@link #workerSlots}). S7 (readiness;
   * Isolato's extension) is waiting, not CPU work, and overlaps across pods: one round.
   */
  public static long rounds(Stage stage, WorkloadShape w, Hardware h) {
    return switch (stage) {
      case S1, S2 -> ceilDiv(w.workloads(), h.controlPlaneCores());
      case S3, S4 -> ceilDiv(w.pods(), h.controlPlaneCores());
      case S5, S6 -> ceilDiv(w.pods(), (long) h.nodes() * workerSlots(w, h));
      case S7 -> 1;
    };
  }

  /** Rounds of one step: its stage's, or one for waiting ({@link Step#waiting}). */
  public static long rounds(Step step, WorkloadShape w, Hardware h) {
    return step.waiting() ? 1 : rounds(step.stage(), w, h);
  }

  /**
   * How many pods a worker node takes through S5–S6 at once. The paper: one per core (U_w). A pod
   * whose CPU limit ℓ is below one core starts its sandbox and containers inside its own cgroup,
   * throttled to ℓ: a step measured on such a pod took ≈ 1/ℓ of its CPU work and occupied only ℓ of
   * a core, so ⌊U_w/ℓ⌋ of them fit (measured on localkube: a 10m pod's sandbox + container start
   * took 6–8 s against 0.3 s at 1000m, docs/pipeline.md). The kubelet's and CNI's own share of the
   * steps is not throttled; at ≈ 5 % of a throttled pod's S5 it is counted as if it were.
   */
  public static long workerSlots(WorkloadShape w, Hardware h) {
    int limit = w.podCpuLimitMillis();
    if (limit == 0 || limit >= 1000) {
      return h.workerCores();
    }
    return (long) h.workerCores() * 1000 / limit;
  }

  /**
   * The best-case deployment time per step; its total is equation (7), T = (T_S1 + T_S2)·⌈J/U_c⌉ +
   * (T_S3 + T_S4)·⌈J·P/U_c⌉ + (T_S5 + T_S6)·⌈J·P/(N·U_w)⌉, plus T_S7 when the single-container
   * input has S7 steps.
   */
  public static Breakdown predict(Breakdown single, WorkloadShape w, Hardware h) {
    Map<Step, Double> out = new EnumMap<>(Step.class);
    single
        .seconds()
        .forEach(
            (step, t) ->
                out.put(
                    step,
                    t * (step.perContainer() ? w.containersPerPod() : 1) * rounds(step, w, h)));
    return Breakdown.of(out);
  }

  static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }
}
