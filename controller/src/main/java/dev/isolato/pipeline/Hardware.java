package dev.isolato.pipeline;

/**
 * Where it is deployed (Section 4.8): N worker nodes, U_c CPU cores on the (single) control-plane
 * node and U_w cores per worker node. The model runs one step execution per core at a time.
 */
public record Hardware(int nodes, int controlPlaneCores, int workerCores) {

  public Hardware {
    WorkloadShape.positive("nodes (N)", nodes);
    WorkloadShape.positive("controlPlaneCores (U_c)", controlPlaneCores);
    WorkloadShape.positive("workerCores (U_w)", workerCores);
  }
}
