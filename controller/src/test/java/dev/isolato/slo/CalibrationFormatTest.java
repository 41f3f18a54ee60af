package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The records read the JSON of docs/calibration-format.md, and the validator names bad fields. */
class CalibrationFormatTest {
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void theDocumentedExampleMapsOntoTheRecordsAndIsValid() throws Exception {
    CalibrationRun run = json.readValue(documentedExample(), CalibrationRun.class);

    assertThat(CalibrationValidator.validate(run)).isEmpty();
    assertThat(run.context().tenantMix()).containsEntry("gold", 4);
    assertThat(run.steps().get(0).total().p95()).isEqualTo(5.6);
    assertThat(run.steps().get(0).tenants()).containsOnlyKeys("t1", "t2");
  }

  @Test
  void everyBadFieldIsReportedByItsJsonPath() {
    List<CalibrationStep> steps = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      steps.add(SyntheticRuns.step(i, 10 * (i + 1), 20));
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
    CalibrationRun run = json.readValue("{\"schemaVersion\":1,\"runId\":\"r\",\"sloClass\":\"gold\"}", CalibrationRun.class);

    assertThat(CalibrationValidator.validate(run)).extracting(FieldError::toString)
        .containsExactly("context: required", "steps: must contain at least one step");
  }

  @Test
  void outcomesRoundTripThroughJsonForTheSloClassStatus() throws Exception {
    UslModel truth = SyntheticRuns.modelWithCutoff(10, 7.5, 60, 0.7, 0);
    CalibrationRun run = SyntheticRuns.run("gold", truth, 1, SyntheticRuns.rates(5, 80, 16), 0.01, new java.util.Random(3));
    CalibrationOutcome outcome = SloEngine.withDefaults().ingest(run, new ClassTarget("gold", 95, 75));

    String text = json.writeValueAsString(outcome);
    CalibrationOutcome back = json.readValue(text, CalibrationOutcome.class);

    assertThat(back).isEqualTo(outcome);
    assertThat(text).contains("\"status\":\"found\"").contains("\"cutoffRps\":" + outcome.cutoff().cutoffRps()).doesNotContain("NaN");
  }

  private static String documentedExample() throws Exception {
    Path doc = Path.of("..", "docs", "calibration-format.md");
    Matcher m = Pattern.compile("```json\\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(doc));
    assertThat(m.find()).as("a ```json block in %s", doc).isTrue();
    return m.group(1);
  }
}
