package dev.isolato.slo;

import java.util.List;

/**
 * What one calibration run taught the engine: the cut-off with its evidence and the fitted model,
 * ready to be stored in the SloClass status.
 *
 * @param perPodCutoffRps cut-off / replicas of the run (the linear baseline's unit); null when no
 *     cut-off was found
 * @param warnings caveats: partial run, cut-off only a lower bound, …
 */
public record CalibrationOutcome(
    String runId,
    String sloClass,
    String contextLabel,
    int replicas,
    ClassTarget target,
    CutoffResult cutoff,
    Double perPodCutoffRps,
    ModelFit fit,
    List<String> warnings) {

  public CalibrationOutcome {
    warnings = List.copyOf(warnings);
  }

  /** This run's cut-off as an input of stability analysis; null when none was found. */
  public ContextCutoff contextCutoff(List<String> colocatedClasses) {
    return cutoff.cutoffRps() == null
        ? null
        : new ContextCutoff(contextLabel, cutoff.cutoffRps(), colocatedClasses);
  }
}
