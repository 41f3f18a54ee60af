package dev.isolato.slo;

import java.util.List;

/**
 * What a load generator measured against one SLO class, step by step; the JSON shape of
 * docs/calibration-format.md. Validate with {@link CalibrationValidator} before use.
 *
 * @param partial true when the run was interrupted; the steps present are complete
 */
public record CalibrationRun(
    int schemaVersion,
    String runId,
    String sloClass,
    boolean partial,
    CalibrationContext context,
    List<CalibrationStep> steps) {

  public static final int SCHEMA_VERSION = 1;

  public CalibrationRun {
    steps = steps == null ? null : List.copyOf(steps);
  }
}
