package dev.isolato.pipeline;

import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * When each milestone of one deployment was seen, in milliseconds of a monotonic clock. Pure and
 * immutable: the tracer builds it, the model compares against {@link #stageSeconds}.
 *
 * @param workload milestones of the workload object (SUBMITTED, WORKLOAD_CREATED, WORKLOAD_UNPACKED)
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
    return pods.entrySet().stream().filter(e -> e.getValue().containsKey(last))
        .max(Comparator.comparingLong(e -> e.getValue().get(last))).map(Map.Entry::getKey);
  }

  /**
   * Seconds per stage along the critical path: from SUBMITTED through the workload milestones
   * and the last pod's milestones up to {@code last}. Each stage runs from the previous seen
   * milestone to the one that ends it, so the stages add up to the deployment time (the paper's
   * Figure 6 breakdown of the last deployed container). Stages whose milestones were not seen
   * are absent.
   */
  public Map<Stage, Double> stageSeconds(Milestone last) {
    Map<Milestone, Long> path = new EnumMap<>(workload);
    lastPod(last).ifPresent(p -> pods.get(p).forEach((m, t) -> {
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

  /** SUBMITTED to the last pod's {@code last}, in seconds; empty until a pod got there. */
  public Optional<Double> totalSeconds(Milestone last) {
    Long start = workload.get(Milestone.SUBMITTED);
    return lastPod(last).filter(p -> start != null).map(p -> (pods.get(p).get(last) - start) / 1000.0);
  }
}
