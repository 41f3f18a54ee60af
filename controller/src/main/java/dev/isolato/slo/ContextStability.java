package dev.isolato.slo;

import java.util.List;

/**
 * One context judged against the baseline.
 *
 * @param deviationPct (cut-off − baseline) / baseline × 100
 * @param unstable |deviation| exceeds {@link StabilityPolicy#maxDeviationPct()}
 * @param ioUnsafe the class and a co-located class are both disk-IO intensive (SAC'20 Findings 1–2:
 *     Kubernetes does not isolate disk IO, never co-locate them)
 */
public record ContextStability(
    String label,
    double cutoffRps,
    double deviationPct,
    boolean unstable,
    boolean ioUnsafe,
    List<String> reasons) {
  public ContextStability {
    reasons = List.copyOf(reasons);
  }
}
