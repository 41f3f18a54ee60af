package dev.isolato.slo;

import dev.isolato.calibration.CalibrationValidator;
import dev.isolato.calibration.FieldError;
import dev.isolato.calibration.LatencySummary;
import java.util.ArrayList;
import java.util.List;

/**
 * The latency SLO of a class: {@code percentile} of requests within {@code targetLatencyMs}.
 *
 * @param percentile one of {@link LatencySummary#SUPPORTED_PERCENTILES}
 */
public record ClassTarget(String sloClass, double percentile, double targetLatencyMs) {

  /** Field errors of this target (empty: valid); paths are prefixed by {@code prefix}. */
  public List<FieldError> validate(String prefix) {
    List<FieldError> errors = new ArrayList<>();
    CalibrationValidator.requireText(errors, prefix + "sloClass", sloClass);
    if (!LatencySummary.isSupported(percentile)) {
      errors.add(
          new FieldError(
              prefix + "percentile", "must be one of 50, 90, 95, 99, was " + percentile));
    }
    CalibrationValidator.requirePositive(errors, prefix + "targetLatencyMs", targetLatencyMs);
    return errors;
  }
}
