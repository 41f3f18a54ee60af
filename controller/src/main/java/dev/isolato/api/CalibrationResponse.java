package dev.isolato.api;

import dev.isolato.slo.CutoffResult;
import dev.isolato.slo.ModelFit;
import java.util.List;

/**
 * What {@code POST /api/v1/calibrations} stored and learned from one run.
 *
 * @param cutoff this run's cut-off with its evidence (every step's verdict)
 * @param perPodCutoffRps this run's cut-off / replicas; null when the lowest step already violated
 * @param fit the class's fit now stored: one fit over the stored runs of this context (one per
 *     replica count), with residuals; the planner uses it when trusted
 * @param runFit the fit of this run alone
 * @param fitRuns the runs {@code fit} used
 * @param classPerPodCutoffRps the per-pod cut-off the linear baseline now uses (newest single-pod
 *     cut-off)
 * @param warnings caveats: partial run, cut-off only a lower bound, fit refused, σ not measured
 */
public record CalibrationResponse(
    String runId,
    String sloClass,
    String context,
    int replicas,
    CutoffResult cutoff,
    Double perPodCutoffRps,
    ModelFit fit,
    ModelFit runFit,
    List<FitRun> fitRuns,
    Double classPerPodCutoffRps,
    List<String> warnings) {

  /** A run of a joint fit. */
  public record FitRun(String runId, int replicas) {}
}
