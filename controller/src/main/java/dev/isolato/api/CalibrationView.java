package dev.isolato.api;

import dev.isolato.tenancy.CalibrationStatusMapper;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassStatus;
import java.util.List;

/**
 * What a class's status holds about calibration (GET .../calibration): cut-offs, the current model
 * and fit, the per-pod cut-off the linear baseline uses and a summary of the stored runs.
 */
public record CalibrationView(
    String sloClass,
    double percentile,
    double targetMs,
    double perPodCutoffRps,
    String perPodCutoffSource,
    List<SloClassStatus.CutoffPoint> cutoffs,
    SloClassStatus.Model model,
    SloClassStatus.Fit fit,
    List<StoredRunSummary> runs,
    String calibratedAt,
    String lastRunId) {

  /** A stored run without its steps. */
  public record StoredRunSummary(
      String runId, String context, int replicas, int steps, boolean partial, String storedAt) {}

  static CalibrationView of(SloClass c) {
    SloClassStatus s = c.getStatus() == null ? new SloClassStatus() : c.getStatus();
    List<StoredRunSummary> runs =
        s.calibrationRuns == null
            ? List.of()
            : s.calibrationRuns.stream()
                .map(
                    r ->
                        new StoredRunSummary(
                            r.runId,
                            r.context,
                            r.replicas,
                            r.steps == null ? 0 : r.steps.size(),
                            r.partial,
                            r.storedAt))
                .toList();
    return new CalibrationView(
        c.getMetadata().getName(),
        c.getSpec().latency.percentile,
        c.getSpec().latency.targetMs,
        CalibrationStatusMapper.perPodCutoff(c),
        PlanView.source(c),
        s.cutoffs == null ? List.of() : s.cutoffs,
        s.model,
        s.fit,
        runs,
        s.calibratedAt,
        s.lastRunId);
  }
}
