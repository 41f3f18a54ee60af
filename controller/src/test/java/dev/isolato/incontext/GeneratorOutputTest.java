package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isolato.calibration.RequestMix;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class GeneratorOutputTest {
  static final String RUN =
      "{\"schemaVersion\":1,\"runId\":\"r1\",\"sloClass\":\"gold\",\"partial\":false,"
          + "\"context\":{\"label\":\"in-context\",\"replicas\":1},\"steps\":["
          + "{\"index\":0,\"offeredRps\":10,\"achievedRps\":9.8,\"durationSeconds\":10,"
          + "\"total\":{\"count\":100,\"errors\":0,\"p50\":1,\"p90\":2,\"p95\":3,\"p99\":4,\"max\":5}},"
          + "{\"index\":1,\"offeredRps\":20,\"achievedRps\":19.2,\"durationSeconds\":5,"
          + "\"total\":{\"count\":100,\"errors\":0,\"p50\":1,\"p90\":2,\"p95\":3,\"p99\":4,\"max\":5}}],"
          + "\"generator\":{\"cpuPct\":7.5,\"cpuSeconds\":1.5,\"wallSeconds\":20,\"nodeBusyPct\":61.2,"
          + "\"cpuModel\":\"Intel Xeon\",\"cpuMhz\":2400.5,\"node\":\"n1\"}}";

  @Test
  void findsTheRunLineAmongTheProgressLines() {
    String log = "openloop: r1, class gold …\n" + GeneratorOutput.PREFIX + RUN + "\nbye\n";
    GeneratorOutput out = GeneratorOutput.parse(log).orElseThrow();
    assertThat(out.run().steps()).hasSize(2);
    assertThat(out.generator().cpuPct()).isEqualTo(7.5);
    assertThat(out.generator().cpuModel()).isEqualTo("Intel Xeon");
    assertThat(out.meanAchievedRps()).isEqualTo(14.5);
  }

  /** The 08:42 httpbin run's signature: saas-bench's route replayed to go-httpbin, all 404. */
  @Test
  void aRunWhoseEveryRequestFailedMeasuresNothingAndSaysWhy() {
    String allFailed = RUN.replace("\"errors\":0", "\"errors\":100").replace("9.8", "0");
    String log =
        "openloop: r1, class gold …\n"
            + "openloop: gold: 200 failed (first at 08:42:01.002): HTTP 404: 404 page not found\n"
            + GeneratorOutput.PREFIX
            + allFailed
            + "\n";
    assertThat(GeneratorOutput.parse(log).orElseThrow().nothingServed(log))
        .hasValueSatisfying(
            m ->
                assertThat(m)
                    .startsWith("every request failed (200 of 200)")
                    .contains(": 200 failed (first at 08:42:01.002): HTTP 404: 404 page not found.")
                    .contains("spec.requestMix"));
    String oneServed = RUN.replaceFirst("\"errors\":0", "\"errors\":100");
    assertThat(
            GeneratorOutput.parse(GeneratorOutput.PREFIX + oneServed)
                .orElseThrow()
                .nothingServed(""))
        .isEmpty();
  }

  @Test
  void aFinePassIsStoredAsOneRunWithTheRamp() {
    GeneratorOutput ramp = GeneratorOutput.parse(GeneratorOutput.PREFIX + RUN).orElseThrow();
    String fineRun =
        RUN.replace("\"index\":0", "\"index\":2")
            .replace("\"index\":1", "\"index\":3")
            .replace(
                "\"cpuPct\":7.5,\"cpuSeconds\":1.5,\"wallSeconds\":20,\"nodeBusyPct\":61.2",
                "\"cpuPct\":5,\"cpuSeconds\":0.5,\"wallSeconds\":10,\"nodeBusyPct\":31.2");
    GeneratorOutput both =
        ramp.with(GeneratorOutput.parse(GeneratorOutput.PREFIX + fineRun).orElseThrow());
    assertThat(both.run().steps())
        .extracting(dev.isolato.calibration.CalibrationStep::index)
        .containsExactly(0, 1, 2, 3);
    assertThat(both.run().runId()).isEqualTo("r1");
    assertThat(both.generator().cpuSeconds()).isEqualTo(2.0);
    assertThat(both.generator().wallSeconds()).isEqualTo(30.0);
    assertThat(both.generator().cpuPct())
        .isCloseTo(6.667, org.assertj.core.data.Offset.offset(0.001));
    assertThat(both.generator().nodeBusyPct())
        .isCloseTo(51.2, org.assertj.core.data.Offset.offset(0.001));
    assertThat(both.generator().cpuModel()).isEqualTo("Intel Xeon");
  }

  @Test
  void noRunLineIsEmptyAndABrokenOneIsAnError() {
    assertThat(GeneratorOutput.parse("openloop: no step completed\n")).isEmpty();
    assertThat(GeneratorOutput.parse(null)).isEmpty();
    assertThatThrownBy(() -> GeneratorOutput.parse(GeneratorOutput.PREFIX + "{\"steps\":"))
        .hasMessageContaining("not a calibration run");
  }

  @Test
  void theArgsRampOnePodThroughItsGateWithTheClassTenants() {
    StepPlan plan = StepPlan.of(List.of(10.0, 20.0), 100);
    RequestMix mix = RequestMix.parse(List.of("GET:/get*3", "POST:/post"), "X-T");
    List<String> a =
        GeneratorArgs.of("r1", "gold", "10.0.0.7", 8080, List.of("t1", "t2"), mix, plan, 7);
    assertThat(String.join(" ", a))
        .contains("-url http://10.0.0.7:8080")
        .contains("-tenants t1,t2")
        .contains("-rates 10,20 -requests 100 -first-index 7")
        .contains("-max-duration " + plan.bound().toSeconds() + "s")
        .contains("-out - -self-stats");
    // the referee's Request, as a plan exports it: it derives nothing (openloop_test.go
    // TestTheRequestFlagSendsTheClassMix reads this shape)
    assertThat(a.subList(a.size() - 2, a.size()))
        .containsExactly(
            "-request",
            "{\"endpoints\":[{\"method\":\"GET\",\"path\":\"/get\",\"weight\":3},"
                + "{\"method\":\"POST\",\"path\":\"/post\",\"weight\":1}],"
                + "\"tenantHeader\":\"X-T\",\"cycle\":[0,0,1,0]}");
    assertThat(GeneratorArgs.of("r", "g", "fd00::1", 8080, List.of("t"), mix, plan, 0))
        .contains("http://[fd00::1]:8080");
    assertThat(plan.planned()).isEqualTo(Duration.ofSeconds(15));
  }
}
