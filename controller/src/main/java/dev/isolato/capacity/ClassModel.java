package dev.isolato.capacity;

/**
 * What live windows are held against: the class's target and the per-pod cut-off its plan was
 * calibrated (or declared) with.
 *
 * @param calibratedPerPodRps the measured cut-off after a calibration, else the declared one
 * @param calibrationId changes when a new calibration is stored (its run id or time): the live
 *     limit then starts afresh from the new figure
 * @param pivot share of the cut-off the autoscaler holds each pod at (pivotPercent / 100): a pool
 *     failing its SLO below cut-off × pivot delivers less than planned; above, it is only loaded
 */
public record ClassModel(
    double percentile,
    double targetMs,
    double calibratedPerPodRps,
    String calibrationId,
    double pivot) {

  /** The rate per pod below which a failing SLO says the pods deliver less than planned. */
  public double planRate(double effectivePerPodRps) {
    return effectivePerPodRps * pivot;
  }
}
