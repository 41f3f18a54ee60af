package dev.isolato.incontext;

/** The phases of an in-context calibration ({@code status.inContext.phase}). */
public final class CalibrationState {
  public static final String PENDING = "Pending";
  public static final String RUNNING = "Running";
  public static final String SUCCEEDED = "Succeeded";
  public static final String FAILED = "Failed";

  private CalibrationState() {}

  /** Whether an in-context calibration in {@code phase} still runs. */
  public static boolean running(String phase) {
    return PENDING.equals(phase) || RUNNING.equals(phase);
  }
}
