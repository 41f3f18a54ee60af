package dev.isolato.slo;

/**
 * When a class's SLO counts as unstable across contexts.
 *
 * @param maxDeviationPct a context whose cut-off deviates from the baseline by more than this (in
 *     %, either way) is unstable: a higher cut-off is as much a risk as a lower one, since it
 *     vanishes when the co-location pattern changes (SAC'20 Finding 1)
 * @param baselineLabel the context the others are compared with; when absent from the input, the
 *     median cut-off is the baseline
 */
public record StabilityPolicy(double maxDeviationPct, String baselineLabel) {

  public static StabilityPolicy defaults() {
    return new StabilityPolicy(10.0, "alone");
  }

  public StabilityPolicy {
    if (!(maxDeviationPct >= 0)) {
      throw new IllegalArgumentException("maxDeviationPct must be >= 0, was " + maxDeviationPct);
    }
  }
}
