package dev.isolato.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class QuantileIntervalTest {

  /** The vectors the Python runner and the Go referee are held to as well. */
  static Stream<JsonNode> sharedVectors() throws IOException {
    try (InputStream in =
        QuantileIntervalTest.class.getResourceAsStream("/quantile-ci-ranks.json")) {
      List<JsonNode> cases = new ArrayList<>();
      new ObjectMapper().readTree(in).path("cases").forEach(cases::add);
      assertThat(cases).hasSizeGreaterThan(20);
      return cases.stream();
    }
  }

  @ParameterizedTest
  @MethodSource("sharedVectors")
  void ranksAreTheSharedVectors(JsonNode c) {
    QuantileInterval ci =
        QuantileInterval.of(
            c.get("n").asInt(), c.get("q").asDouble(), c.get("confidence").asDouble());
    assertThat(ci).isEqualTo(new QuantileInterval(c.get("low").asInt(), c.get("high").asInt()));
  }

  @Test
  void theP95OfThreeHundredSamplesLiesBetweenRanks277And293() {
    // normal approximation: 0.95 n -/+ 1.96 sqrt(n 0.95 0.05) = 285 -/+ 7.4, rounded outwards
    assertThat(QuantileInterval.p95(300)).isEqualTo(new QuantileInterval(277, 293));
    assertThat(QuantileInterval.p95(300).hasHigh(300)).isTrue();
  }

  @Test
  void fewerThanSeventyTwoSamplesGiveNoUpperBoundForTheP95() {
    assertThat(QuantileInterval.p95(71).hasHigh(71)).isFalse();
    assertThat(QuantileInterval.p95(72).hasHigh(72)).isTrue();
    assertThat(QuantileInterval.p95(1).hasLow()).isFalse();
  }

  @Test
  void badArgumentsAreRefused() {
    assertThatThrownBy(() -> QuantileInterval.of(0, 0.95, 0.95))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> QuantileInterval.of(10, 1.0, 0.95))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
