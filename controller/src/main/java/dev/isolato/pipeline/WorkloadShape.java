package dev.isolato.pipeline;

/**
 * What is deployed (Section 4.8): J workload objects (a Job or Deployment each), P pods per
 * workload object, C containers per pod.
 */
public record WorkloadShape(int workloads, int podsPerWorkload, int containersPerPod) {

  public WorkloadShape {
    positive("workloads (J)", workloads);
    positive("podsPerWorkload (P)", podsPerWorkload);
    positive("containersPerPod (C)", containersPerPod);
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
