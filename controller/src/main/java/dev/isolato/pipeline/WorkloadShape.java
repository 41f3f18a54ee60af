package dev.isolato.pipeline;

/**
 * What is deployed (Section 4.8): J workload objects (a Job or Deployment each), P pods per
 * workload object, C containers per pod; and the CPU limit of each pod in millicores (0: none),
 * which the paper does not have: a pod's sandbox and containers start inside its cgroup, so its CFS
 * quota throttles them (see {@link PipelineModel#workerSlots}).
 */
public record WorkloadShape(
    int workloads, int podsPerWorkload, int containersPerPod, int podCpuLimitMillis) {

  public WorkloadShape {
    positive("workloads (J)", workloads);
    positive("podsPerWorkload (P)", podsPerWorkload);
    positive("containersPerPod (C)", containersPerPod);
    if (podCpuLimitMillis < 0) {
      throw new IllegalArgumentException(
          "podCpuLimitMillis must be 0 (no limit) or more, got " + podCpuLimitMillis);
    }
    if ((long) workloads * podsPerWorkload * containersPerPod > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "J·P·C must fit in an int, got "
              + workloads
              + "·"
              + podsPerWorkload
              + "·"
              + containersPerPod);
    }
  }

  /** A shape whose pods have no CPU limit, as in the paper. */
  public WorkloadShape(int workloads, int podsPerWorkload, int containersPerPod) {
    this(workloads, podsPerWorkload, containersPerPod, 0);
  }

  /** One pod of one container with the same CPU limit: the model's single input (Section 4.8). */
  public WorkloadShape single() {
    return new WorkloadShape(1, 1, 1, podCpuLimitMillis);
  }

  /** J·P. */
  public int pods() {
    return workloads * podsPerWorkload;
  }

  /** J·P·C. */
  public int containers() {
    return pods() * containersPerPod;
  }

  static void positive(String what, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(what + " must be at least 1, got " + value);
    }
  }
}
