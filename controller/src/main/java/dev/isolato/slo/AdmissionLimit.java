package dev.isolato.slo;

/**
 * How much committed rate a pool can still admit, from the same {@link PlanRequest} the planner
 * sizes the pool with: every allowed pod ({@code maxReplicas}) at the request's per-pod cut-off
 * (the measured one after a calibration, else the declared one).
 *
 * @param ceilingRps largest total committed rate the pool can serve
 * @param committedRps what the request's tenants already commit
 */
public record AdmissionLimit(double ceilingRps, double committedRps) {

  /** The limit of the pool {@code request} plans (its tenants are the ones already admitted). */
  public static AdmissionLimit of(PlanRequest request) {
    return new AdmissionLimit(
        request.maxReplicas() * request.perPodCutoffRps(), request.totalCommittedRps());
  }

  public double remainingRps() {
    return Math.max(0, ceilingRps - committedRps);
  }

  /** Whether one more tenant committing {@code rps} fits. */
  public boolean admits(double rps) {
    return committedRps + rps <= ceilingRps;
  }
}
