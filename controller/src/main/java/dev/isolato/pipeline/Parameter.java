package dev.isolato.pipeline;

import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * One entry of the rule catalog (Columbo Section 5.2, Table 5): a setting that limits how many
 * objects a pipeline step may process at once or per second.
 *
 * @param id component-prefixed name; for localkube-applicable settings exactly the localkube config
 *     key ({@code localkube config set <id> <value>})
 * @param defaultValue the Kubernetes v1.34.4 default as written in the source
 * @param limit the default as a throughput limit; empty when the setting has no numeric throughput
 *     rule (booleans, percentages, probe timings) and is only reported
 * @param steps the steps it limits
 * @param counts the object whose count it limits (Table 5's "Object" column)
 * @param throttle how the limit turns a count into rounds
 * @param apply where the value can be changed
 * @param source where the default is defined: {@code k8s.io/<module>/<path>:<line>} in the Go
 *     module cache, or a path in this repository; empty when there is no definition to point at
 * @param evidence text that line (or file, for repository paths) contains
 */
public record Parameter(
    String id,
    Stage.Component component,
    String defaultValue,
    OptionalDouble limit,
    Set<Step> steps,
    Counted counts,
    Throttle throttle,
    Apply apply,
    String source,
    String evidence,
    String note) {

  public Parameter {
    Objects.requireNonNull(id, "id");
    steps = Set.copyOf(steps);
    if (steps.isEmpty()) {
      throw new IllegalArgumentException(id + ": a parameter limits at least one step");
    }
  }

  /** The object a parameter counts, and over which scope. */
  public enum Counted {
    /**
     * SloClasses reconciled at once. Every shape the loop deploys is one class's pools at most
     * (Isolato's paths: one class; plain Deployments: none), and a class's pools are applied within
     * its reconcile (isolato.pool-apply-threads counts them), so one: measured, 16 reconcile
     * threads instead of 4 left 50 dedicated tenants' onboarding unchanged (docs/benchmarks-log.md,
     * 2026-11-23 21:58).
     */
    CLASSES,
    WORKLOADS,
    PODS,
    PODS_PER_WORKLOAD,
    PODS_PER_NODE,
    CONTAINERS,
    CONTAINERS_PER_NODE,
    NODES;

    /** How many such objects a workload needs processed, the rule's "required" value. */
    public int required(WorkloadShape w, Hardware h) {
      int podsPerNode = (int) PipelineModel.ceilDiv(w.pods(), h.nodes());
      return switch (this) {
        case CLASSES -> 1;
        case WORKLOADS -> w.workloads();
        case PODS -> w.pods();
        case PODS_PER_WORKLOAD -> w.podsPerWorkload();
        case PODS_PER_NODE -> podsPerNode;
        case CONTAINERS -> w.containers();
        case CONTAINERS_PER_NODE -> podsPerNode * w.containersPerPod();
        case NODES -> h.nodes();
      };
    }
  }

  /** How a limit value turns a required count into sequential rounds (or seconds, for rates). */
  public enum Throttle {
    /** At most {@code limit} at a time, or {@code limit} per second: ⌈n / limit⌉. */
    FLAT,
    /**
     * A component's API client token bucket (its QPS or burst): {@link #FLAT}, and measured: the
     * client's wait for it bounds what raising it can gain ({@link TuningStep.Evidence}).
     */
    TOKEN_BUCKET,
    /**
     * The API server's in-flight limits: {@link #FLAT}, and measured: with API Priority and
     * Fairness they are the seats its priority levels share, and its requests' wait in their queues
     * bounds what raising them can gain ({@link TuningStep.Evidence}).
     */
    IN_FLIGHT,
    /**
     * Batches {@code limit}, 2·limit, 4·limit, … (the controllers' slowStartBatch): ⌈log2(n/limit +
     * 1)⌉.
     */
    DOUBLING,
    /** Reported only. */
    NONE;

    /** Whether requests wait for this limit in a queue whose wait a component records. */
    public boolean queued() {
      return this == TOKEN_BUCKET || this == IN_FLIGHT;
    }

    public double rounds(double required, double limit) {
      return switch (this) {
        case FLAT, TOKEN_BUCKET, IN_FLIGHT -> Math.ceil(required / limit);
        case DOUBLING -> Math.ceil(Math.log(required / limit + 1) / Math.log(2));
        case NONE -> 1;
      };
    }
  }

  /**
   * Where a value is changed: a localkube config key (restarts the one component), an Isolato
   * property (Isolato owns it, so it is applied on shared clusters too), or a report for the
   * cluster admin or a source change ({@code how} says what).
   */
  public record Apply(Where where, String how) {
    public enum Where {
      LOCALKUBE,
      ISOLATO,
      REPORT
    }

    public static Apply localkube(String key) {
      return new Apply(Where.LOCALKUBE, key);
    }

    public static Apply isolato(String property) {
      return new Apply(Where.ISOLATO, property);
    }

    public static Apply report(String why) {
      return new Apply(Where.REPORT, why);
    }

    /** Whether Isolato may change it itself on the given cluster. */
    public boolean appliesOn(Cluster cluster) {
      return where == Where.ISOLATO || (where == Where.LOCALKUBE && cluster == Cluster.LOCALKUBE);
    }
  }

  /**
   * On localkube Isolato may reconfigure the control plane; on a shared cluster only its own
   * settings.
   */
  public enum Cluster {
    LOCALKUBE,
    SHARED
  }
}
