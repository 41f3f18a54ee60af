package dev.isolato.incontext;

import dev.isolato.calibration.CalibrationRun;
import dev.isolato.slo.CalibrationOutcome;
import dev.isolato.slo.ClassTarget;
import dev.isolato.slo.ModelFit;
import dev.isolato.slo.SloEngine;
import dev.isolato.tenancy.CalibrationStatusMapper;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Instant;
import java.util.List;

/**
 * Stores one calibration run in its class's status: the engine's cut-off, the model fitted over the
 * class's runs of the same context, the stored run (JSON merge patch guarded by the class's
 * resourceVersion, so a concurrent write is a 409 to retry). The one path of {@code POST
 * /api/v1/calibrations} and of in-context calibrations.
 */
public final class CalibrationRecorder {
  private CalibrationRecorder() {}

  /**
   * What was stored.
   *
   * @param fit the class's fit now stored (over {@code fitRuns})
   * @param next the status written
   */
  public record Recorded(
      CalibrationOutcome outcome,
      ModelFit fit,
      List<CalibrationStatusMapper.StoredRunRef> fitRuns,
      SloClassStatus next) {}

  /**
   * Stores {@code run} in {@code cls}'s status.
   *
   * @throws io.fabric8.kubernetes.client.KubernetesClientException 409 when the class changed since
   *     {@code cls} was read
   */
  public static Recorded record(
      KubernetesClient client,
      SloEngine engine,
      SloClass cls,
      ClassTarget target,
      CalibrationRun run,
      Instant now) {
    CalibrationOutcome outcome = engine.ingest(run, target);
    List<CalibrationStatusMapper.StoredRunRef> fitRuns =
        CalibrationStatusMapper.runsForFit(cls.getStatus(), run);
    ModelFit fit =
        fitRuns.size() == 1
            ? outcome.fit()
            : engine.fit(
                fitRuns.stream().map(CalibrationStatusMapper.StoredRunRef::run).toList(), target);
    SloClassStatus next =
        CalibrationStatusMapper.record(cls.getStatus(), run, outcome, fit, fitRuns, now);
    client
        .resources(SloClass.class)
        .withName(cls.getMetadata().getName())
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            CalibrationStatusMapper.mergePatch(next, cls.getMetadata().getResourceVersion()));
    return new Recorded(outcome, fit, fitRuns, next);
  }
}
