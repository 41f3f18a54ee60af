package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.calibration.CalibrationRun;
import dev.isolato.slo.PodSizing.SizeCutoff;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The size choice on runs measured on the dev machine (2026-11-22, one pod each, 150-unit CPU
 * requests, p95 <= 50 ms): bronze-alone (100m), model-accuracy/replicas-1 (200m), gold-alone (400m)
 * as stored then in docs/results (kept here: results/ holds the latest runs), taken before the
 * measurement hygiene on a shared host. There the 100m pod's p95 jumps to ~100 ms at 10 req/s
 * (about half its quota) while the 400m pod holds the target up to ~90% of its quota; per core:
 * 100m 70 req/s, 200m 240, 400m 225. (A clean run on 2026-11-23 held 100m to >= 11 req/s:
 * docs/benchmarks-log.md, "Pod size from measurements".)
 */
class PodSizeDataTest {
  private static final ClassTarget P95_50MS = new ClassTarget("sized", 95, 50);
  private final SloEngine engine = SloEngine.withDefaults();
  private final PodSizeChooser chooser = new PodSizeChooser(PlanPolicy.defaults().headroom());

  private double perPodCutoff(String file) throws IOException {
    CalibrationRun run =
        new ObjectMapper()
            .readValue(
                Path.of("src", "test", "resources").resolve(file).toFile(), CalibrationRun.class);
    return engine
        .ingest(
            new CalibrationRun(
                run.schemaVersion(),
                run.runId(),
                "sized",
                run.partial(),
                run.context(),
                run.steps()),
            P95_50MS)
        .perPodCutoffRps();
  }

  private PodSizing measured() throws IOException {
    return measured("runs-2026-11-22/", ".json");
  }

  /** One pod per size: bronze-alone (100m), model-accuracy/replicas-1 (200m), gold-alone (400m). */
  private PodSizing measured(String dir, String suffix) throws IOException {
    return new PodSizing(
        400,
        List.of(
            new SizeCutoff(100, perPodCutoff(dir + "bronze" + suffix)),
            new SizeCutoff(200, perPodCutoff(dir + "acc1" + suffix)),
            new SizeCutoff(400, perPodCutoff(dir + "gold" + suffix))),
        null);
  }

  /**
   * The clean runs of 2026-11-23 (generator on its own CPU, Gatling's tenants staggered), by the
   * open-loop referee: a 100m pod keeps 86 % of a 400m pod's rate per core, not the third the
   * 2026-11-22 runs showed, and the choice still saves CPU where the declared size's granularity
   * wastes it.
   */
  @Test
  void theRefereeRunsShowASmallQuotaLosingLittleAndTheChoiceSavingCpuAtSmallLoads()
      throws IOException {
    PodSizing sizing = measured("runs-2026-11-23/", ".openloop.json");

    assertThat(sizing.candidates())
        .extracting(SizeCutoff::perPodCutoffRps)
        .containsExactly(31.5, 66.0, 146.2);
    assertThat((31.5 / 0.1) / (146.2 / 0.4)).isGreaterThan(0.8);
    // committed → chosen size × pods; declared: 400m pods
    assertThat(choice(sizing, 20, 10)).isEqualTo("100m×1"); // 100m vs 400m: -75%
    assertThat(choice(sizing, 40, 10)).isEqualTo("200m×1"); // 200m vs 400m: -50%
    assertThat(choice(sizing, 90, 10)).isEqualTo("400m×1"); // 400m vs 400m
    assertThat(choice(sizing, 150, 10)).isEqualTo("200m×3"); // 600m vs 800m: -25%
    assertThat(choice(sizing, 250, 10)).isEqualTo("400m×2"); // 800m vs 800m
  }

  /** Gatling's runs on the same pods: lower cut-offs at every size, so more (small) pods. */
  @Test
  void gatlingsRunsOfTheSamePodsPlanSmallerPodsAndMoreOfThem() throws IOException {
    PodSizing sizing = measured("runs-2026-11-23/", ".json");

    assertThat(sizing.candidates())
        .extracting(SizeCutoff::perPodCutoffRps)
        .containsExactly(26.2, 50.0, 97.5);
    assertThat(choice(sizing, 90, 10)).isEqualTo("100m×4"); // 400m vs 800m: -50%
    assertThat(choice(sizing, 150, 10)).isEqualTo("100m×7"); // 700m vs 800m: -12.5%
  }

  @Test
  void theMeasuredCutoffsShowTheSmallQuotaLosingAtTheTail() throws IOException {
    PodSizing sizing = measured();

    assertThat(sizing.candidates())
        .extracting(SizeCutoff::perPodCutoffRps)
        .containsExactly(7.0, 48.0, 90.0);
    double perCore100 = 7.0 / 0.1;
    double perCore400 = 90.0 / 0.4;
    assertThat(perCore100 / perCore400)
        .as("in these runs a 100m pod served under a third of a 400m pod's rate per core")
        .isLessThan(1.0 / 3);
  }

  @Test
  void theChoiceReservesLessCpuThanTheDeclared400mPodsForTheSameCommittedLoad() throws IOException {
    PodSizing sizing = measured();
    int max = 10;

    // committed → chosen size, pods; declared 400m pods (10% headroom at the measured cut-offs)
    assertThat(choice(sizing, 5, max)).isEqualTo("100m×1"); // 100m vs 400m: -75%
    assertThat(choice(sizing, 40, max)).isEqualTo("200m×1"); // 200m vs 400m: -50%
    assertThat(choice(sizing, 90, max)).isEqualTo("200m×3"); // 600m vs 800m: -25%
    assertThat(choice(sizing, 150, max)).isEqualTo("200m×4"); // 800m vs 800m: tie → better per CPU
    assertThat(chooser.choose(sizing, 150, 1, max).options().get(2).reservedCpuMillis())
        .isEqualTo(800);
    assertThat(choice(sizing, 250, max)).isEqualTo("200m×6"); // 1200m vs 1600m: -25%
  }

  private String choice(PodSizing sizing, double rate, int max) {
    PodSizeChooser.Choice c = chooser.choose(sizing, rate, 1, max);
    int pods =
        c.options().stream()
            .filter(o -> o.cpuMillis() == c.cpuMillis())
            .findFirst()
            .orElseThrow()
            .replicas();
    return c.cpuMillis() + "m×" + pods;
  }
}
