package dev.isolato.slo;

import java.util.List;
import java.util.Map;

/**
 * A planner's decision for one class.
 *
 * @param replicas pods the class needs
 * @param admittedRps per tenant id, the rate the workload admits before throttling
 * @param capacityRps the class's total rate at the planned replicas
 * @param method which planner decided ("linear-baseline", or a model-based method)
 * @param explanation human-readable steps of the decision, shown in status and the API
 * @param podCpuMillis the pod size chosen among the class's candidates ({@link PodSizingPlanner});
 *     null when the class declares one size
 */
public record CapacityPlan(
    int replicas,
    Map<String, Double> admittedRps,
    double capacityRps,
    String method,
    List<String> explanation,
    Long podCpuMillis) {

  public CapacityPlan {
    admittedRps = Map.copyOf(admittedRps);
    explanation = List.copyOf(explanation);
  }

  /** A plan at the class's one declared pod size. */
  public CapacityPlan(
      int replicas,
      Map<String, Double> admittedRps,
      double capacityRps,
      String method,
      List<String> explanation) {
    this(replicas, admittedRps, capacityRps, method, explanation, null);
  }
}
