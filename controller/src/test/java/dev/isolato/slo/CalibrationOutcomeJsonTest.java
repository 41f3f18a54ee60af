package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.calibration.CalibrationRun;
import org.junit.jupiter.api.Test;

/**
 * The engine's outcome survives the JSON of the SloClass status (the format itself:
 * calibration-format/).
 */
class CalibrationOutcomeJsonTest {
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void outcomesRoundTripThroughJsonForTheSloClassStatus() throws Exception {
    UslModel truth = SyntheticRuns.modelWithCutoff(10, 7.5, 60, 0.7, 0);
    CalibrationRun run =
        SyntheticRuns.run(
            "gold", truth, 1, SyntheticRuns.rates(5, 80, 16), 0.01, new java.util.Random(3));
    CalibrationOutcome outcome =
        SloEngine.withDefaults().ingest(run, new ClassTarget("gold", 95, 75));

    String text = json.writeValueAsString(outcome);
    CalibrationOutcome back = json.readValue(text, CalibrationOutcome.class);

    assertThat(back).isEqualTo(outcome);
    assertThat(text)
        .contains("\"status\":\"found\"")
        .contains("\"cutoffRps\":" + outcome.cutoff().cutoffRps())
        .doesNotContain("NaN");
  }
}
