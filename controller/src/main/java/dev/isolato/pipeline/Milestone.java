package dev.isolato.pipeline;

/**
 * A transition the tracer sees on the watch, in pipeline order; each one ends a stage. The first
 * four are about the workload object (and its namespace), the rest about each pod.
 */
public enum Milestone {
  /** The client sent the create (the tracer's start mark); not seen on a watch. */
  SUBMITTED(null, false),
  /**
   * The workload's namespace arrives, when a client such as Isolato creates it first: splits S1
   * into the client's own work before it and the rest (Isolato's reconcile, docs/pipeline.md).
   */
  NAMESPACE_CREATED(Stage.S1, false),
  /** The Deployment arrives on the watch: written to etcd (end of S1). */
  WORKLOAD_CREATED(Stage.S1, false),
  /** Its ReplicaSet arrives: the controller manager unpacked the workload (end of S2). */
  WORKLOAD_UNPACKED(Stage.S2, false),
  /** The pod object arrives (end of S3). */
  POD_CREATED(Stage.S3, true),
  /** spec.nodeName is set: the scheduler's binding is written (end of S4). */
  POD_BOUND(Stage.S4, true),
  /** PodReadyToStartContainers=True (or a pod IP): the sandbox exists (end of S5). */
  SANDBOX_READY(Stage.S5, true),
  /** Every container reports running (end of S6). */
  CONTAINERS_STARTED(Stage.S6, true),
  /** Ready=True: the readiness probe passed (Isolato's S7, first half). */
  POD_READY(Stage.S7, true),
  /** A ready endpoint for the pod is in an EndpointSlice (end of S7). */
  POD_SERVED(Stage.S7, true);

  private final Stage ends;
  private final boolean perPod;

  Milestone(Stage ends, boolean perPod) {
    this.ends = ends;
    this.perPod = perPod;
  }

  /** The stage this milestone ends; null for {@link #SUBMITTED}. */
  public Stage ends() {
    return ends;
  }

  public boolean perPod() {
    return perPod;
  }
}
