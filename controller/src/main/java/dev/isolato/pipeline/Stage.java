package dev.isolato.pipeline;

/**
 * The six stages of Kubernetes' workload-deployment pipeline (Jansen et al., ICPE'25, Section 4,
 * Figure 4, Table 3), plus {@link #S7} — Isolato's extension after the paper's pipeline ends: a
 * started container becomes Ready and is served (readiness probe, EndpointSlice). A pool scale-out
 * is only done when its pods serve, so Isolato measures that part too; the paper's equation (7)
 * covers S1–S6 only.
 */
public enum Stage {
  S1("CWO", "Create workload object", Component.CLIENT, ObjectKind.WORKLOAD, Plane.CONTROL, 1, 3),
  S2(
      "UWO",
      "Unpack workload object",
      Component.CONTROLLER_MANAGER,
      ObjectKind.WORKLOAD,
      Plane.CONTROL,
      4,
      7),
  S3(
      "CPO",
      "Create pod object",
      Component.CONTROLLER_MANAGER,
      ObjectKind.POD,
      Plane.CONTROL,
      8,
      10),
  S4("SP", "Schedule pod", Component.SCHEDULER, ObjectKind.POD, Plane.CONTROL, 11, 16),
  S5("CP", "Create pod", Component.KUBELET, ObjectKind.POD, Plane.WORKER, 17, 21),
  S6("CC", "Create container", Component.KUBELET, ObjectKind.CONTAINER, Plane.WORKER, 22, 26),
  /** Not in the paper: readiness probe passes, the pod's address enters the EndpointSlice. */
  S7("RS", "Ready and served", Component.KUBELET, ObjectKind.POD, Plane.WORKER, 0, 0);

  /** Which process runs a stage's control loop. */
  public enum Component {
    CLIENT,
    APISERVER,
    CONTROLLER_MANAGER,
    SCHEDULER,
    KUBELET,
    ISOLATO
  }

  /** The API object a stage processes, one at a time (Section 3.1, finding (i)). */
  public enum ObjectKind {
    WORKLOAD,
    POD,
    CONTAINER
  }

  /** Where a stage's CPU is spent: shared control-plane cores U_c or per-node cores U_w (eq. 7). */
  public enum Plane {
    CONTROL,
    WORKER
  }

  private final String abbreviation;
  private final String title;
  private final Component component;
  private final ObjectKind object;
  private final Plane plane;
  private final int firstFigureStep;
  private final int lastFigureStep;

  Stage(
      String abbreviation,
      String title,
      Component component,
      ObjectKind object,
      Plane plane,
      int firstFigureStep,
      int lastFigureStep) {
    this.abbreviation = abbreviation;
    this.title = title;
    this.component = component;
    this.object = object;
    this.plane = plane;
    this.firstFigureStep = firstFigureStep;
    this.lastFigureStep = lastFigureStep;
  }

  public String abbreviation() {
    return abbreviation;
  }

  public String title() {
    return title;
  }

  public Component component() {
    return component;
  }

  public ObjectKind object() {
    return object;
  }

  public Plane plane() {
    return plane;
  }

  /** The paper's Figure 4 numbers its 26 communication steps 1–26; 0 for Isolato's S7. */
  public int firstFigureStep() {
    return firstFigureStep;
  }

  public int lastFigureStep() {
    return lastFigureStep;
  }

  public boolean inPaper() {
    return this != S7;
  }
}
