package dev.isolato.capacity;

/**
 * A conservative estimate of one pod's cut-off from live windows.
 *
 * @param perPodRps the estimate; for basis {@link #HOLDING} a lower bound only (the SLO held at
 *     every rate seen)
 * @param errorRps half the width of the bracket the cut-off lies in (0 when only a bound is known)
 * @param basis how it was found: {@value #HOLDING}, {@value #BRACKET}, {@value #REFIT} or {@value
 *     #SATURATION}
 * @param windows active windows it rests on
 * @param lowestFailingRps the rate per pod below which no window failed twice (null: none failed)
 */
public record LiveEstimate(
    double perPodRps, double errorRps, String basis, int windows, Double lowestFailingRps) {
  /** The SLO held in every window: the cut-off is at least the highest rate seen. */
  public static final String HOLDING = "holding";

  /** The highest rate that held below the lowest that failed. */
  public static final String BRACKET = "bracket";

  /** The latency model refitted on the live windows, capped at the lowest failing rate. */
  public static final String REFIT = "refit";

  /** No rate held: a share of what the saturated pod delivered. */
  public static final String SATURATION = "saturation";

  /** Whether the estimate is an upper-bounded figure (some window failed), not a lower bound. */
  public boolean bounded() {
    return lowestFailingRps != null;
  }
}
