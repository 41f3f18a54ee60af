package dev.isolato.calibration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The validator reports every bad field by its JSON path. */
class CalibrationValidatorTest {

  @Test
  void everyBadFieldIsReportedByItsJsonPath() {
    List<CalibrationStep> steps = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      steps.add(new CalibrationStep(i, 10 * (i + 1), 10 * (i + 1), 16,
          new LatencySummary(160, 0, 12, 18, 20, 26, 40), Map.of()));
    }
    steps.add(new CalibrationStep(2, 0, 5, 10, new LatencySummary(100, 120, 5, 4, 6, 7, 8),
        Map.of("t1", new LatencySummary(-1, 0, 1, 2, 3, 4, 5))));
    CalibrationRun run = new CalibrationRun(2, " ", "gold", false,
        new CalibrationContext("alone", "950m", "1900Mi", 0, List.of(), Map.of()), steps);

    assertThat(CalibrationValidator.validate(run)).extracting(FieldError::toString).containsExactlyInAnyOrder(
        "schemaVersion: must be 1, was 2",
        "runId: required",
        "context.replicas: must be >= 1, was 0",
        "steps[3].index: duplicate index 2",
        "steps[3].offeredRps: must be > 0, was 0.0",
        "steps[3].total.errors: must be between 0 and count (100), was 120",
        "steps[3].total.p90: must be >= p50 (5.0), was 4.0",
        "steps[3].tenants.t1.count: must be >= 0, was -1",
        "steps[3].tenants.t1.errors: must be between 0 and count (-1), was 0");
  }

  @Test
  void missingObjectsAreRequired() throws Exception {
    CalibrationRun run = new ObjectMapper().readValue(
        "{\"schemaVersion\":1,\"runId\":\"r\",\"sloClass\":\"gold\"}", CalibrationRun.class);

    assertThat(CalibrationValidator.validate(run)).extracting(FieldError::toString)
        .containsExactly("context: required", "steps: must contain at least one step");
  }
}
