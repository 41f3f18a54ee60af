package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepPlanTest {
  @Test
  void rampsFromAFifthToOneAndAHalfTimesTheReferenceWithinTheBudget() {
    StepPlan p = StepPlan.of(100, Duration.ofSeconds(60));
    assertThat(p.rates()).containsExactly(20.0, 40.0, 60.0, 80.0, 100.0, 125.0, 150.0);
    // Σ 1/r = 0.12883: 60 s / 0.12883 = 465.7, so 465 requests per step
    assertThat(p.requestsPerStep()).isEqualTo(465);
    assertThat(p.planned()).isBetween(Duration.ofSeconds(59), Duration.ofSeconds(60));
    assertThat(p.bound()).isEqualTo(p.planned().multipliedBy(3).dividedBy(2).plusSeconds(10));
    assertThat(p.ratesFlag()).isEqualTo("20,40,60,80,100,125,150");
  }

  @Test
  void aLowReferenceKeepsDistinctStepsAndEnoughRequests() {
    StepPlan p = StepPlan.of(1, Duration.ofSeconds(10));
    assertThat(p.rates()).containsExactly(0.5, 0.6, 0.8, 1.0, 1.3, 1.5);
    assertThat(p.requestsPerStep()).isEqualTo(StepPlan.MIN_REQUESTS);
    assertThat(p.ratesFlag()).isEqualTo("0.5,0.6,0.8,1,1.3,1.5");
  }

  @Test
  void theStoredStepsGiveTheSamePlanBack() {
    StepPlan p = StepPlan.of(55, Duration.ofSeconds(45));
    assertThat(StepPlan.of(p.rates(), p.requestsPerStep())).isEqualTo(p);
    assertThat(StepPlan.of(List.of(10.0), 100).planned()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void refusesNoReferenceOrATinyBudget() {
    assertThatThrownBy(() -> StepPlan.of(0, Duration.ofSeconds(60)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StepPlan.of(Double.NaN, Duration.ofSeconds(60)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StepPlan.of(50, Duration.ofSeconds(5))).hasMessageContaining("budget");
  }
}
