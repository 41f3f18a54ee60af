package dev.isolato.pipeline;

import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * When each milestone of one deployment was seen, in milliseconds of a monotonic clock. Pure and
 * immutable: the tracer builds it, the model compares against {@link #stageSeconds}.
 *
 * @param workload milestones of the workload object (SUBMITTED, WORKLOAD_CREATED,
 *     WORKLOAD_UNPACKED)
 * @param pods per pod name, its milestones
 */
public record Timeline(Map<Milestone, Long> workload, Map<String, Map<Milestone, Long>> pods) {

  public Timeline {
    workload = Collections.unmodifiableMap(new EnumMap<>(copy(workload)));
    Map<String, Map<Milestone, Long>> p = new LinkedHashMap<>();
    pods.forEach((name, m) -> p.put(name, Collections.unmodifiableMap(copy(m))));
    pods = Collections.unmodifiableMap(p);
  }

  private static EnumMap<Milestone, Long> copy(Map<Milestone, Long> m) {
    EnumMap<Milestone, Long> c = new EnumMap<>(Milestone.class);
    c.putAll(m);
    return c;
  }

  /** Pods that reached {@code milestone}. */
  public long podsAt(Milestone milestone) {
    return pods.values().stream().filter(m -> m.containsKey(milestone)).count();
  }

  /** The pod that reached {@code last} latest: the deployment's critical path. */
  public Optional<String> lastPod(Milestone last) {
    return pods.entrySet().stream()
        .filter(e -> e.getValue().containsKey(last))
        .max(Comparator.comparingLong(e -> e.getValue().get(last)))
        .map(Map.Entry::getKey);
  }

  /**
   * Seconds per stage along the critical path: from SUBMITTED through the workload milestones and
   * the last pod's milestones up to {@code last}. Each stage runs from the previous seen milestone
   * to the one that ends it, so the stages add up to the deployment time (the paper's Figure 6
   * breakdown of the last deployed container). Stages whose milestones were not seen are absent.
   */
  public Map<Stage, Double> stageSeconds(Milestone last) {
    Map<Milestone, Long> path = new EnumMap<>(workload);
    lastPod(last)
        .ifPresent(
            p ->
                pods.get(p)
                    .forEach(
                        (m, t) -> {
                          if (m.compareTo(last) <= 0) {
                            path.put(m, t);
                          }
                        }));
    Map<Stage, Double> out = new EnumMap<>(Stage.class);
    Long previous = null;
    for (Map.Entry<Milestone, Long> e : path.entrySet()) {
      if (previous != null && e.getKey().ends() != null) {
        out.merge(e.getKey().ends(), Math.max(0, e.getValue() - previous) / 1000.0, Double::sum);
      }
      previous = e.getValue();
    }
    return out;
  }

  /**
   * Several workload objects submitted together (J > 1): the stages of the one whose last pod
   * reached {@code last} latest, with the time between the first submission and its own added to S1
   * (its create waited behind the others'), so the stages add up to the whole deployment time.
   * Empty when no pod got there.
   */
  public static Map<Stage, Double> criticalPath(List<Timeline> timelines, Milestone last) {
    Optional<Timeline> slowest = slowest(timelines, last);
    OptionalLong first =
        timelines.stream()
            .map(t -> t.workload.get(Milestone.SUBMITTED))
            .filter(Objects::nonNull)
            .mapToLong(Long::longValue)
            .min();
    if (slowest.isEmpty()) {
      return Map.of();
    }
    Map<Stage, Double> out = slowest.get().stageSeconds(last);
    double wait = (slowest.get().workload.get(Milestone.SUBMITTED) - first.getAsLong()) / 1000.0;
    out.merge(Stage.S1, wait, Double::sum);
    return out;
  }

  /** The submitted workload whose last pod reached {@code last} latest: the critical path's. */
  public static Optional<Timeline> slowest(List<Timeline> timelines, Milestone last) {
    return timelines.stream()
        .filter(t -> t.lastPod(last).isPresent() && t.workload.containsKey(Milestone.SUBMITTED))
        .max(Comparator.comparingLong(t -> t.end(last)));
  }

  /**
   * S1 split where the client created the namespace first (Isolato's paths): seconds from the
   * submission to the namespace, and from the namespace to the workload object; empty when either
   * was not seen.
   */
  public Optional<NamespaceSplit> namespaceSplit() {
    Long s = workload.get(Milestone.SUBMITTED);
    Long n = workload.get(Milestone.NAMESPACE_CREATED);
    Long w = workload.get(Milestone.WORKLOAD_CREATED);
    if (s == null || n == null || w == null) {
      return Optional.empty();
    }
    return Optional.of(
        new NamespaceSplit(Math.max(0, n - s) / 1000.0, Math.max(0, w - n) / 1000.0));
  }

  /** S1 of a client that creates the namespace first, in seconds. */
  public record NamespaceSplit(double toNamespace, double toWorkload) {}

  /**
   * Whether S5 and S6 were seen as one: the kubelet reported the sandbox and the running containers
   * in the same status update, so the tracer stamped both at once and S6 reads 0.
   */
  public static boolean s5AndS6Merged(Map<Stage, Double> stages) {
    return stages.getOrDefault(Stage.S5, 0.0) > 0 && stages.getOrDefault(Stage.S6, 0.0) == 0;
  }

  /**
   * S5's time moved to S6: when the two were seen as one, what ends the measured S5 is the
   * kubelet's status write — S6's T_w, which kubelet.kubeAPIQPS limits — so the pair is compared
   * with the model and matched to rules as S6.
   */
  public static Map<Stage, Double> foldS5IntoS6(Map<Stage, Double> stages) {
    Map<Stage, Double> out = new EnumMap<>(Stage.class);
    out.putAll(stages);
    Double s5 = out.remove(Stage.S5);
    if (s5 != null) {
      out.merge(Stage.S6, s5, Double::sum);
    }
    return out;
  }

  private long end(Milestone last) {
    return pods.get(lastPod(last).orElseThrow()).get(last);
  }

  /** SUBMITTED to the last pod's {@code last}, in seconds; empty until a pod got there. */
  public Optional<Double> totalSeconds(Milestone last) {
    Long start = workload.get(Milestone.SUBMITTED);
    return lastPod(last)
        .filter(p -> start != null)
        .map(p -> (pods.get(p).get(last) - start) / 1000.0);
  }
}
