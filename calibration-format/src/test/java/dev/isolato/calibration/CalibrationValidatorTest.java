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
      steps.add(
          new CalibrationStep(
              i,
              10 * (i + 1),
              10 * (i + 1),
              16,
              new LatencySummary(160, 0, 12, 18, 20, 26, 40),
              Map.of()));
    }
    steps.add(
        new CalibrationStep(
            2,
            0,
            5,
            10,
            new LatencySummary(100, 120, 5, 4, 6, 7, 8),
            Map.of(
                "t1",
                new LatencySummary(-1, 0, 1, 2, 3, 4, 5),
                "t2",
                new LatencySummary(100, 0, 1, 2, 3, 4, 5, 3.5, 6.0),
                "t3",
                new LatencySummary(100, 0, 1, 2, 3, 4, 5, 2.5, 4.5))));
    CalibrationRun run =
        new CalibrationRun(
            2,
            " ",
            "gold",
            false,
            new CalibrationContext("alone", "950m", "1900Mi", 0, List.of(), Map.of()),
            steps);

    assertThat(CalibrationValidator.validate(run))
        .extracting(FieldError::toString)
        .containsExactlyInAnyOrder(
            "schemaVersion: must be 1, was 2",
            "runId: required",
            "context.replicas: must be >= 1, was 0",
            "steps[3].index: duplicate index 2",
            "steps[3].offeredRps: must be > 0, was 0.0",
            "steps[3].total.errors: must be between 0 and count (100), was 120",
            "steps[3].total.p90: must be >= p50 (5.0), was 4.0",
            "steps[3].tenants.t1.count: must be >= 0, was -1",
            "steps[3].tenants.t1.errors: must be between 0 and count (-1), was 0",
            "steps[3].tenants.t2.p95Low: must be between 0 and p95 (3.0), was 3.5",
            "steps[3].tenants.t2.p95High: must be between p95 (3.0) and max (5.0), was 6.0");
  }

  @Test
  void podCpuIsAPositiveQuantityWhenGiven() {
    for (String bad : List.of("0", "0m", "-1", "lots", "1e3", "")) {
      assertThat(CalibrationValidator.validate(run(bad)))
          .as(bad)
          .extracting(FieldError::toString)
          .containsExactly(
              "context.podCpu: must be a positive CPU quantity such as 250m or 1 (the pods' CPU during the run), was '"
                  + bad
                  + "'");
    }
    for (String good : List.of("100m", "0.5", "1", "2500m")) {
      assertThat(CalibrationValidator.validate(run(good))).as(good).isEmpty();
    }
    assertThat(CalibrationValidator.validate(run(null))).as("optional").isEmpty();
  }

  private static CalibrationRun run(String podCpu) {
    return new CalibrationRun(
        1,
        "r",
        "gold",
        false,
        new CalibrationContext("alone", podCpu, null, 1, List.of(), Map.of()),
        List.of(
            new CalibrationStep(
                0, 10, 10, 16, new LatencySummary(160, 0, 12, 18, 20, 26, 40), Map.of())));
  }

  @Test
  void missingObjectsAreRequired() throws Exception {
    CalibrationRun run =
        new ObjectMapper()
            .readValue(
                "{\"schemaVersion\":1,\"runId\":\"r\",\"sloClass\":\"gold\"}",
                CalibrationRun.class);

    assertThat(CalibrationValidator.validate(run))
        .extracting(FieldError::toString)
        .containsExactly("context: required", "steps: must contain at least one step");
  }
}
