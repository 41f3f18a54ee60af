package dev.isolato.pipeline;

import dev.isolato.metrics.Exposition;
import java.util.EnumMap;
import java.util.Map;

/**
 * Pure: the steps of S5 and S6 (the paper's equations 5 and 6) as the kubelet times them itself,
 * from two scrapes of its {@code /metrics} around a run. The tracer resolves stages; these
 * histograms split S5 and S6 into T_cg, T_mv, T_cs (with T_nn: the CNI runs inside the runtime's
 * RunPodSandbox), T_cc and T_sc. Each is a histogram's sum and count over the run, so it is a mean
 * per operation (bucket-free: sums are exact), with no per-pod timeline.
 */
public final class KubeletSteps {

  /** {@code count} operations took {@code seconds} together (wall time of each call, summed). */
  public record Measure(long count, double seconds) {

    /** Seconds per operation; 0 when none ran. */
    public double mean() {
      return count == 0 ? 0 : seconds / count;
    }
  }

  private record Source(String histogram, String label, String value) {}

  private static final String RUNTIME = "kubelet_runtime_operations_duration_seconds";

  /** Where each step is read; T_mv also counts image pulls (the paper's "fetch images"). */
  private static final Map<Step, Source[]> SOURCES =
      Map.of(
          Step.S5_CGROUP,
          new Source[] {
            new Source("kubelet_cgroup_manager_duration_seconds", "operation_type", "create")
          },
          Step.S5_MOUNT,
          new Source[] {
            new Source("storage_operation_duration_seconds", "operation_name", "volume_mount"),
            new Source(RUNTIME, "operation_type", "pull_image")
          },
          Step.S5_SANDBOX,
          new Source[] {new Source(RUNTIME, "operation_type", "run_podsandbox")},
          Step.S6_CREATE_CONTAINER,
          new Source[] {new Source(RUNTIME, "operation_type", "create_container")},
          Step.S6_START_CONTAINER,
          new Source[] {new Source(RUNTIME, "operation_type", "start_container")});

  private KubeletSteps() {}

  /**
   * The steps between two scrapes of the same kubelets ({@code before}, {@code after}: their
   * expositions, concatenated when there are several nodes). A counter that went down (a restarted
   * kubelet) reads as no operations.
   */
  public static Map<Step, Measure> between(String before, String after) {
    Map<Step, Measure> out = new EnumMap<>(Step.class);
    SOURCES.forEach(
        (step, sources) -> {
          long count = 0;
          double seconds = 0;
          for (Source s : sources) {
            Map<String, String> l = Map.of(s.label(), s.value());
            double n =
                Exposition.sum(after, s.histogram() + "_count", l)
                    - Exposition.sum(before, s.histogram() + "_count", l);
            double t =
                Exposition.sum(after, s.histogram() + "_sum", l)
                    - Exposition.sum(before, s.histogram() + "_sum", l);
            if (n > 0 && t >= 0) {
              count += Math.round(n);
              seconds += t;
            }
          }
          out.put(step, new Measure(count, seconds));
        });
    return out;
  }
}
