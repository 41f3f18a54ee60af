package dev.isolato.pipeline;

import java.util.EnumMap;
import java.util.Map;

/**
 * Pure: the steps of S5 and S6 (the paper's equations 5 and 6) as the kubelet times them itself,
 * from two scrapes of its {@code /metrics} around a run. The tracer resolves stages; these
 * histograms split S5 and S6 into T_cg, T_mv, T_cs (with T_nn: the CNI runs inside the runtime's
 * RunPodSandbox), T_cc and T_sc, each a {@link Measure}.
 */
public final class KubeletSteps {

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
          Measure m = Measure.NONE;
          for (Source s : sources) {
            m = m.plus(Measure.between(before, after, s.histogram(), Map.of(s.label(), s.value())));
          }
          out.put(step, m);
        });
    return out;
  }
}
