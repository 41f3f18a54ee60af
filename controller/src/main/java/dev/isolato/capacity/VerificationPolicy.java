package dev.isolato.capacity;

/**
 * How much live evidence moves a class's verdicts (docs/calibration.md, "Continuous verification").
 * Windows are the verification loop's, a few seconds each.
 *
 * @param overWindows k: the SLO counts as failing (and drift as sustained) when k of the last
 *     {@code ofWindows} active windows are over target — never on a single noisy window
 * @param ofWindows n, the evidence window of the k-of-n rule
 * @param heldWindows consecutive windows within target after which a failing SLO holds again
 * @param probeWindows consecutive windows at or below target × {@code probeMargin} after which a
 *     lowered effective cut-off rises halfway back to the calibrated one (recovery with hysteresis:
 *     a context that improved shows it, one that did not lowers it again)
 * @param probeMargin see {@code probeWindows}
 * @param saturationMargin share of the rate a saturated pod delivered that is taken as its live
 *     cut-off when no window held the SLO (a queue at 70 % load waits ≈ 2.3 service times)
 * @param historyWindows per-pod points kept for the live estimate (the rest is forgotten)
 * @param minRefitPoints fewest active windows the latency model is refitted on
 * @param minCoverage the windows must span at least this share of the rate where the SLO failed
 *     before the model is refitted on them (a cluster of points says nothing about the curve)
 * @param maxDeviationPct live vs calibrated cut-off deviation above which the stability analysis
 *     calls the context unstable and a recalibration is wanted
 */
public record VerificationPolicy(
    int overWindows,
    int ofWindows,
    int heldWindows,
    int probeWindows,
    double probeMargin,
    double saturationMargin,
    int historyWindows,
    int minRefitPoints,
    double minCoverage,
    double maxDeviationPct) {

  /** 3 of 4 windows, 6 to hold again, a probe after 24 calm windows (2 min at 5 s). */
  public static VerificationPolicy defaults() {
    return new VerificationPolicy(3, 4, 6, 24, 0.8, 0.7, 120, 6, 0.5, 10.0);
  }

  public VerificationPolicy {
    if (overWindows < 1 || ofWindows < overWindows) {
      throw new IllegalArgumentException(
          "need 1 <= overWindows <= ofWindows, was " + overWindows + " of " + ofWindows);
    }
    if (heldWindows < 1 || probeWindows < 1 || historyWindows < ofWindows) {
      throw new IllegalArgumentException(
          "heldWindows and probeWindows must be >= 1 and historyWindows >= ofWindows");
    }
    if (!(probeMargin > 0 && probeMargin <= 1)
        || !(saturationMargin > 0 && saturationMargin < 1)
        || !(minCoverage >= 0 && minCoverage <= 1)) {
      throw new IllegalArgumentException(
          "probeMargin in (0, 1], saturationMargin in (0, 1), minCoverage in [0, 1]");
    }
    if (minRefitPoints < 4 || !(maxDeviationPct >= 0)) {
      throw new IllegalArgumentException("minRefitPoints >= 4, maxDeviationPct >= 0");
    }
  }
}
