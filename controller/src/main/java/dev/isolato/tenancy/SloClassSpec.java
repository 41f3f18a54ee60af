package dev.isolato.tenancy;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.isolato.calibration.RequestMix;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** What a provider declares for an SLO class. Quantities use Kubernetes notation. */
@ValidationRule(
    value = WorkloadRules.IMAGE_OR_WORKLOAD,
    fieldPath = ".workload",
    message = WorkloadRules.IMAGE_OR_WORKLOAD_MESSAGE)
public class SloClassSpec {
  @Required
  @JsonPropertyDescription("Latency target the class promises its tenants.")
  public LatencyTarget latency = new LatencyTarget();

  @Required
  @JsonPropertyDescription(
      "CPU and memory of one pod; requests == limits (Guaranteed QoS) unless headroom adds CPU above.")
  public PodResources resources = new PodResources();

  @Default("0")
  @Min(-SpecLimits.MAX_PRIORITY)
  @Max(SpecLimits.MAX_PRIORITY)
  @JsonPropertyDescription("Value of the class's PriorityClass; higher classes preempt lower ones.")
  public int priority;

  @Min(1)
  @Max(SpecLimits.MAX_REPLICAS)
  @Default("1")
  public int minReplicas = 1;

  @Min(1)
  @Max(SpecLimits.MAX_REPLICAS)
  @Default("4")
  @JsonPropertyDescription("Upper replica bound; at least minReplicas.")
  public int maxReplicas = 4;

  @Min(SpecLimits.MIN_PIVOT_PERCENT)
  @Max(SpecLimits.MAX_PIVOT_PERCENT)
  @Default("70")
  @JsonPropertyDescription(
      "Pivot: where the autoscaler holds each pod, in percent of the per-pod cut-off (the pool"
          + " scales out above cut-off × pivot per pod); the CPU HPA fallback, which reads no"
          + " request rate, uses it as its target CPU utilisation.")
  public int pivotPercent = 70;

  @Min(SpecLimits.MIN_RPS)
  @Max(SpecLimits.MAX_RPS)
  @Required
  @JsonPropertyDescription(
      "Declared cut-off point of one pod (req/s) until a calibration measures it.")
  public double perPodCutoffRps;

  @Pattern(SpecLimits.IMAGE)
  @Size(max = SpecLimits.MAX_IMAGE_LENGTH)
  @JsonPropertyDescription(
      "A saas-bench-compatible app image behind the gate (tenant key path:/v1/tenants/, the table"
          + " forwarded to it); default localhost/isolato/saas-bench:dev. Not with workload.")
  public String image;

  @JsonPropertyDescription(
      "The provider's app: one container serving HTTP on one port (not 8080) behind Isolato's"
          + " gate; Isolato sets resources, replicas, priority, labels and the restricted Pod"
          + " Security context. Absent: saas-bench (image).")
  public WorkloadTemplate workload;

  @Pattern(SpecLimits.TENANT_KEY)
  @JsonPropertyDescription(
      "Where the gate finds the tenant of a request: header:<name> (1-64 of A-Z a-z 0-9 - _),"
          + " path:/<prefix>/ (one or more segments; the tenant is the segment after it) or host (the first DNS label). Default: path:/v1/tenants/"
          + " for image classes, header:X-Tenant for workload classes.")
  public String tenantKey;

  @Size(max = RequestMix.MAX_ENDPOINTS)
  @JsonPropertyDescription(
      "What a tenant's requests are, replayed by an in-context calibration: the service's"
          + " endpoints, each tenant's requests going through them in proportion to their weights;"
          + " the tenant where tenantKey says (header: sent in it; path: each path is the prefix,"
          + " then {tenant}). Absent: saas-bench's POST /v1/tenants/{tenant}/requests for image"
          + " classes; a workload class without it is not calibrated in context. Empty is absent.")
  public java.util.List<MixEndpoint> requestMix;

  @Default("reject")
  @JsonPropertyDescription(
      "A request whose tenant is not in the table: reject (404 problem+json at the gate) or pass"
          + " (forwarded and counted as tenant _unknown, outside every tenant's admission).")
  public UnknownTenant unknownTenant = UnknownTenant.reject;

  @Default("false")
  @JsonPropertyDescription("Whether tenants of this class may ask for a dedicated namespace.")
  public boolean allowDedicated;

  @Default("enforce")
  @JsonPropertyDescription(
      "enforce: a tenant's requests beyond its admitted rate get 429 (token "
          + "bucket in each pod); off: no per-tenant limit, so one aggressive tenant can take the "
          + "capacity planned for the others (kept for experiments that measure what admission buys).")
  public Admission admission = Admission.enforce;

  @Default("commitment")
  @JsonPropertyDescription(
      "How the planner counts a tenant the profiler finds passive (offering far "
          + "below its commitment): commitment, or measured (its measured rate; the class is then "
          + "overbooked until the tenant is no longer passive, and admission still follows commitments).")
  public PassiveTenants passiveTenants = PassiveTenants.commitment;

  @JsonPropertyDescription(
      "Vertical headroom (SAC'20 Finding 5): CPU the class pods may use above their "
          + "request, and whether a lowest-priority filler soaks the idle CPU meanwhile. Absent: requests == limits.")
  public Headroom headroom;

  @JsonPropertyDescription(
      "Node pool of the class's pods (nodeSelector, tolerations); every pool is also spread over"
          + " nodes and IO-heavy pools kept off each other's nodes.")
  public PlacementSpec placement;

  @JsonPropertyDescription("Local disk of each pod; absent: derived from the tenants' io profiles.")
  public StorageSpec storage;

  @JsonPropertyDescription(
      "The app's share of requests at the pods' isolato-gate (docs/gate.md); absent: the gate's"
          + " defaults, 64 at once and 1 s of waiting.")
  public GateSpec gate;

  /** One endpoint of a class's request mix ({@link RequestMix}'s, shared by every instrument). */
  public static class MixEndpoint {
    @Required
    @Pattern(RequestMix.METHOD)
    public String method;

    @Required
    @Pattern(RequestMix.PATH)
    @Size(max = RequestMix.MAX_PATH_LENGTH)
    @JsonPropertyDescription("Absolute path; {tenant} stands for the tenant's id.")
    public String path;

    @Min(1)
    @Max(RequestMix.MAX_WEIGHT)
    @Default("1")
    public int weight = 1;

    public MixEndpoint() {}

    public MixEndpoint(String method, String path, int weight) {
      this.method = method;
      this.path = path;
      this.weight = weight;
    }
  }

  /** What the gate does with a request of no tenant in the table. */
  public enum UnknownTenant {
    reject,
    pass
  }

  /** How passive tenants are counted when planning. */
  public enum PassiveTenants {
    commitment,
    measured
  }

  /** Per-tenant admission control in the class's pods. Lower-case like the other CRD enums. */
  public enum Admission {
    enforce,
    off
  }

  /** Latency percentile and its target. */
  public static class LatencyTarget {
    @Min(SpecLimits.MIN_PERCENTILE)
    @Max(SpecLimits.MAX_PERCENTILE)
    @Default("95")
    public double percentile = 95;

    @Min(SpecLimits.MIN_TARGET_MS)
    @Max(SpecLimits.MAX_TARGET_MS)
    @Required
    public double targetMs;
  }

  /** Pod CPU and memory as Kubernetes quantities. */
  @ValidationRule(
      value = WorkloadRules.CPU_ABOVE_GATE,
      fieldPath = ".cpu",
      message = WorkloadRules.POD_SIZE_MESSAGE)
  @ValidationRule(
      value = WorkloadRules.MEMORY_ABOVE_GATE,
      fieldPath = ".memory",
      message = WorkloadRules.POD_SIZE_MESSAGE)
  @ValidationRule(
      value = WorkloadRules.CANDIDATES_ABOVE_GATE,
      fieldPath = ".cpuCandidates",
      message = WorkloadRules.POD_SIZE_MESSAGE)
  public static class PodResources {
    @Required
    @Pattern(SpecLimits.POSITIVE_QUANTITY)
    public String cpu;

    @Required
    @Pattern(SpecLimits.POSITIVE_QUANTITY)
    public String memory;

    @Size(max = SpecLimits.MAX_CPU_CANDIDATES)
    @JsonPropertyDescription(
        "Candidate pod CPU sizes (requests == limits); the planner runs the one "
            + "reserving the least CPU for the committed load among those calibrated (a calibration run's "
            + "context.podCpu names its size). Empty: always cpu.")
    public java.util.List<@Pattern(SpecLimits.POSITIVE_QUANTITY) String> cpuCandidates;
  }

  /**
   * How many requests the gate hands the app at once, and how long the others may wait in the gate
   * for one of those places before a 503 with Retry-After.
   */
  public static class GateSpec {
    @Min(1)
    @Max(SpecLimits.MAX_APP_REQUESTS)
    @Default("64")
    @JsonPropertyDescription(
        "Requests relayed to the app at once; more wait in the gate in arrival order. An app that"
            + " blocks on slow back ends may need more than 64.")
    public int maxAppRequests = 64;

    @Min(SpecLimits.MIN_QUEUE_TIMEOUT_MS)
    @Max(SpecLimits.MAX_QUEUE_TIMEOUT_MS)
    @Default("1000")
    @JsonPropertyDescription(
        "Longest wait in the gate for a place at the app, in ms; then 503 with Retry-After: 1.")
    public int queueTimeoutMs = 1000;
  }

  /**
   * CPU above the request of each class pod, and the filler that soaks it while the class does not.
   */
  public static class Headroom {
    @Required
    @Pattern(SpecLimits.POSITIVE_QUANTITY)
    @JsonPropertyDescription(
        "CPU each class pod may use above its request (limit = request + cpu).")
    public String cpu;

    @Default("true")
    @JsonPropertyDescription(
        "Whether each pool runs a filler Deployment: lowest priority (preempted first), "
            + "a 10m CPU request (starved first under contention), CPU limit = cpu.")
    public boolean filler = true;
  }
}
