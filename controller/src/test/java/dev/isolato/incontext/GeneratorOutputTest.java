package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    List<String> a =
        GeneratorArgs.of("r1", "gold", "10.0.0.7", 8080, List.of("t1", "t2"), "header:X-T", plan);
    assertThat(String.join(" ", a))
        .contains("-url http://10.0.0.7:8080")
        .contains("-tenants t1,t2")
        .contains("-rates 10,20 -requests 100")
        .contains("-max-duration " + plan.bound().toSeconds() + "s")
        .contains("-out - -self-stats")
        .endsWith("-tenant-header X-T");
    assertThat(GeneratorArgs.of("r", "g", "fd00::1", 8080, List.of("t"), null, plan))
        .contains("http://[fd00::1]:8080")
        .doesNotContain("-tenant-header");
    assertThat(plan.planned()).isEqualTo(Duration.ofSeconds(15));
  }
}
