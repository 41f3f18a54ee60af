package dev.isolato.slo;

import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * What a load generator measured against one SLO class, step by step; the JSON shape of
 * docs/calibration-format.md. Validate with {@link CalibrationValidator} before use.
 *
 * @param partial true when the run was interrupted; the steps present are complete
 */
public record CalibrationRun(
    @Required @Min(SCHEMA_VERSION) @Max(SCHEMA_VERSION) int schemaVersion,
    @Required @Pattern(NOT_BLANK) String runId,
    @Required @Pattern(NOT_BLANK) String sloClass,
    boolean partial,
    @Required CalibrationContext context,
    @Required @Size(min = 1) List<CalibrationStep> steps) {

  public static final int SCHEMA_VERSION = 1;
  /** A text with something other than white space (unanchored, as JSON Schema patterns are). */
  public static final String NOT_BLANK = "\\S";

  public CalibrationRun {
    steps = steps == null ? null : List.copyOf(steps);
  }
}
