package dev.isolato.slo;

import java.util.List;

/**
 * How one step was judged against the SLO, the evidence behind a cut-off.
 *
 * @param passed the step met latency, error and throughput criteria
 * @param role {@code pass} (below the cut-off), {@code noise} (a failing step that the next two
 *     steps refute by passing), {@code violation} (the first step of the confirmed violation),
 *     {@code beyond} (after the confirmed violation; not considered)
 * @param latencyMarginPct (latency − target) / target × 100; negative means headroom
 * @param reasons the failed criteria, empty when passed
 */
public record StepVerdict(
    int stepIndex,
    double offeredRps,
    double latencyMs,
    double latencyMarginPct,
    double errorRate,
    double achievedRatio,
    boolean passed,
    String role,
    List<String> reasons) {

  public static final String PASS = "pass";
  public static final String NOISE = "noise";
  public static final String VIOLATION = "violation";
  public static final String BEYOND = "beyond";

  public StepVerdict {
    reasons = List.copyOf(reasons);
  }
}
