package dev.isolato.capacity;

import java.time.Instant;
import java.util.List;

/**
 * The verification of one pool after a window.
 *
 * @param sloHeld false once k of the last n active windows were over target; true again after
 *     {@link VerificationPolicy#heldWindows()} consecutive windows within it
 * @param since when {@code sloHeld} took its value (null: never evaluated on traffic)
 * @param last the latest active window (null: none yet)
 * @param live the conservative live estimate (null: no active window yet)
 * @param effectivePerPodRps the cut-off the planner should use: the calibrated one unless drift
 *     lowered it
 * @param driftSince when the live evidence first lowered the effective cut-off (null: no drift)
 * @param changes what changed with this window, for Events and logs
 */
public record Verdict(
    boolean sloHeld,
    Instant since,
    LiveWindow last,
    LiveEstimate live,
    double effectivePerPodRps,
    Instant driftSince,
    List<Change> changes) {

  public Verdict {
    changes = List.copyOf(changes);
  }

  public boolean drift() {
    return driftSince != null;
  }

  /** A change of verdict. */
  public enum Change {
    /** The SLO failed in k of n windows. */
    SLO_LOST,
    /** The SLO held again for the required windows. */
    SLO_RESTORED,
    /** Sustained evidence lowered the effective cut-off. */
    LOWERED,
    /** A calm probe raised the effective cut-off halfway back. */
    RAISED,
    /** The effective cut-off is the calibrated one again (probe or new calibration). */
    CLEARED
  }
}
