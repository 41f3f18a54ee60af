package dev.isolato.pipeline;

/**
 * The terms of the paper's per-stage equations (1)–(6), with the symbols of its Table 4. A step is
 * a (stage, term) pair because T_w and T_r recur in several stages with different costs. Steps
 * marked {@code perContainer} are summed over the C containers of a pod (equation 6).
 */
public enum Step {
  // Equation (1): T_S1 = T_sk + T_tr + L + T_w
  S1_START_CLIENT(
      Stage.S1, "T_sk", "start the client (kubectl; for Isolato: its reconcile)", false),
  S1_TRANSLATE(Stage.S1, "T_tr", "translate the workload into API objects", false),
  S1_LATENCY(Stage.S1, "L", "latency from the client to the API server", false),
  S1_WRITE(Stage.S1, "T_w", "API server writes the workload object to the datastore", false),
  // Equation (2): T_S2 = T_r
  S2_READ(Stage.S2, "T_r", "controller manager reads the workload object (watch)", false),
  // Equation (3): T_S3 = T_cpo + T_w
  S3_CREATE_POD_OBJECT(Stage.S3, "T_cpo", "controller unpacks and creates the pod object", false),
  S3_WRITE(Stage.S3, "T_w", "API server writes the pod object", false),
  // Equation (4): T_S4 = T_r + T_sc + T_w
  S4_READ(Stage.S4, "T_r", "scheduler reads the pod (watch, queue)", false),
  S4_SCHEDULE(Stage.S4, "T_sc", "scheduler filters and scores nodes", false),
  S4_WRITE(Stage.S4, "T_w", "scheduler writes the binding", false),
  // Equation (5): T_S5 = T_r + T_cg + T_nn + T_mv + T_cs
  S5_READ(Stage.S5, "T_r", "kubelet reads the bound pod", false),
  S5_CGROUP(Stage.S5, "T_cg", "create the pod's cgroup", false),
  S5_NETWORK(Stage.S5, "T_nn", "create the network namespace (CNI)", false),
  S5_MOUNT(Stage.S5, "T_mv", "fetch images, mount volumes", false),
  S5_SANDBOX(Stage.S5, "T_cs", "create the pod sandbox", false),
  // Equation (6): T_S6 = sum_i T_cc,i + sum_j (T_sc,j + T_w)
  S6_CREATE_CONTAINER(Stage.S6, "T_cc,i", "create container i (sequential within a pod)", true),
  S6_START_CONTAINER(Stage.S6, "T_sc,i", "start container i (sequential within a pod)", true),
  S6_WRITE(Stage.S6, "T_w", "kubelet writes the container's status", true),
  // Isolato's: the generic PLEG relists the runtime once a second, so the kubelet notices a started
  // container 0-1 s late; measured as the single pod's S5 + S6 beyond the kubelet's timed steps
  S6_OBSERVE(Stage.S6, "T_pl", "kubelet's relist notices the started containers (waiting)", false),
  // Isolato's extension S7 (not in the paper): T_S7 = T_pr + T_ep
  S7_PROBE(Stage.S7, "T_pr", "readiness probe passes, kubelet writes Ready", false),
  S7_ENDPOINTS(Stage.S7, "T_ep", "endpointslice controller publishes the address", false);

  private final Stage stage;
  private final String symbol;
  private final String description;
  private final boolean perContainer;

  Step(Stage stage, String symbol, String description, boolean perContainer) {
    this.stage = stage;
    this.symbol = symbol;
    this.description = description;
    this.perContainer = perContainer;
  }

  public Stage stage() {
    return stage;
  }

  /** The paper's Table 4 symbol (T_pr, T_ep are Isolato's). */
  public String symbol() {
    return symbol;
  }

  public String description() {
    return description;
  }

  public boolean perContainer() {
    return perContainer;
  }

  /**
   * Waiting that overlaps across pods rather than work that takes a core: the model gives it one
   * round whatever the shape ({@link PipelineModel#rounds(Step, WorkloadShape, Hardware)}).
   */
  public boolean waiting() {
    return this == S6_OBSERVE || stage == Stage.S7;
  }

  /** One of the paper's 18 terms (T_pl, T_pr and T_ep are Isolato's). */
  public boolean inPaper() {
    return this != S6_OBSERVE && stage.inPaper();
  }

  /** "S3 T_cpo": unique, unlike the symbol alone. */
  public String label() {
    return stage.name() + " " + symbol;
  }
}
