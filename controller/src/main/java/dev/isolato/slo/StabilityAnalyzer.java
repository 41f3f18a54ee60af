package dev.isolato.slo;

import static dev.isolato.slo.Text.fmt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Compares a class's cut-offs across contexts (alone, homogeneous or heterogeneous co-location,
 * changed tenant ratios): the spread, the contexts where the SLO would be unstable, and co-location
 * of disk-IO-intensive classes, which is unsafe.
 */
public final class StabilityAnalyzer {
  private final StabilityPolicy policy;

  public StabilityAnalyzer(StabilityPolicy policy) {
    this.policy = policy;
  }

  /**
   * How stable the cut-offs of {@code sloClass} are across its contexts.
   *
   * @param ioIntensiveClasses the classes whose workload is disk-IO intensive
   */
  public StabilityReport analyze(
      String sloClass, List<ContextCutoff> cutoffs, Set<String> ioIntensiveClasses) {
    if (cutoffs.isEmpty()) {
      throw new IllegalArgumentException("at least one context cut-off is needed");
    }
    for (ContextCutoff c : cutoffs) {
      if (!(c.cutoffRps() > 0)) {
        throw new IllegalArgumentException(
            "cut-off of context " + c.label() + " must be > 0, was " + c.cutoffRps());
      }
    }
    ContextCutoff named =
        cutoffs.stream()
            .filter(c -> c.label().equals(policy.baselineLabel()))
            .findFirst()
            .orElse(null);
    double baseline = named != null ? named.cutoffRps() : median(cutoffs);
    String baselineLabel = named != null ? named.label() : "median";
    boolean classIo = ioIntensiveClasses.contains(sloClass);
    double min = Double.POSITIVE_INFINITY;
    double max = 0;
    boolean stable = true;
    List<ContextStability> contexts = new ArrayList<>(cutoffs.size());
    for (ContextCutoff c : cutoffs) {
      min = Math.min(min, c.cutoffRps());
      max = Math.max(max, c.cutoffRps());
      double deviation = 100 * (c.cutoffRps() - baseline) / baseline;
      boolean unstable = Math.abs(deviation) > policy.maxDeviationPct();
      List<String> ioPeers =
          classIo
              ? c.colocatedClasses().stream().filter(ioIntensiveClasses::contains).toList()
              : List.of();
      List<String> reasons = new ArrayList<>();
      if (unstable) {
        reasons.add(
            fmt(
                "cut-off %.1f rps deviates %+.1f%% from %s %.1f rps (limit ±%.1f%%)",
                c.cutoffRps(), deviation, baselineLabel, baseline, policy.maxDeviationPct()));
      }
      if (!ioPeers.isEmpty()) {
        reasons.add(
            "unsafe: disk-IO-intensive "
                + sloClass
                + " co-located with disk-IO-intensive "
                + String.join(", ", ioPeers)
                + " (Kubernetes does not isolate disk IO)");
      }
      stable &= !unstable && ioPeers.isEmpty();
      contexts.add(
          new ContextStability(
              c.label(), c.cutoffRps(), deviation, unstable, !ioPeers.isEmpty(), reasons));
    }
    return new StabilityReport(
        sloClass,
        baselineLabel,
        baseline,
        min,
        max,
        100 * (max - min) / baseline,
        stable,
        contexts);
  }

  private static double median(List<ContextCutoff> cutoffs) {
    double[] v = cutoffs.stream().mapToDouble(ContextCutoff::cutoffRps).toArray();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
