package dev.isolato.calibration;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * What a load generator measured against one SLO class, step by step; the JSON shape of
 * docs/calibration-format.md (schema: docs/schemas/calibration-run.schema.json). Validate with
 * {@link CalibrationValidator} before use. Unknown fields (the runner's {@code hygiene}) are
 * ignored, as the schema allows them.
 *
 * @param partial true when the run was interrupted; the steps present are complete
 */
@JsonIgnoreProperties(ignoreUnknown = true)
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
