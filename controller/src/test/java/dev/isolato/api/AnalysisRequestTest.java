package dev.isolato.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.calibration.FieldError;
import org.junit.jupiter.api.Test;

class AnalysisRequestTest {

  @Test
  void theBoundsAndTheirProductAreChecked() {
    assertThat(AnalysisRequest.errors(new AnalysisRequest(1, 100, null, null, null))).isEmpty();
    assertThat(AnalysisRequest.errors(new AnalysisRequest(50, 4, 1, 5, 5))).isEmpty();
    assertThat(AnalysisRequest.errors(new AnalysisRequest(10, 100, 1, 0, 1)))
        .extracting(FieldError::field)
        .containsExactly("podsPerWorkload");
    assertThat(AnalysisRequest.errors(new AnalysisRequest(null, 0, 5, -1, 0)))
        .extracting(FieldError::field)
        .containsExactly(
            "workloads", "podsPerWorkload", "containersPerPod", "maxChanges", "repeats");
  }
}
