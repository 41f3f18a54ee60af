package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.calibration.CalibrationRun;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The open-loop referee's runs of 100m pods at 1, 2 and 3 replicas, measured on 2026-11-23 under
 * the measurement hygiene (docs/results/model-accuracy-100m, kept here since docs/results holds the
 * latest), one new connection per request so that kube-proxy draws every request's pod at random.
 * Each pod then sees a randomly thinned stream whose bursts its CFS quota throttles: the cut-offs
 * grow far less than linearly (35 / 52 / 63 rps) and the 2- and 3-replica latency curves rise
 * earlier and more gradually than the 1-replica knee, which a per-replica curve scaled along the
 * rate axis cannot follow.
 */
class SplitKneeDataTest {
  private static final ClassTarget P95_50MS = new ClassTarget("accfit", 95, 50);
  private final SloEngine engine = SloEngine.withDefaults();

  private static CalibrationRun run(int replicas) throws IOException {
    CalibrationRun run =
        new ObjectMapper()
            .readValue(
                Path.of("src", "test", "resources", "runs-2026-11-23-split")
                    .resolve("acc" + replicas + ".openloop.json")
                    .toFile(),
                CalibrationRun.class);
    return new CalibrationRun(
        run.schemaVersion(), run.runId(), "accfit", run.partial(), run.context(), run.steps());
  }

  private double measuredCutoff(int replicas) throws IOException {
    Double cutoff = engine.ingest(run(replicas), P95_50MS).cutoff().cutoffRps();
    assertThat(cutoff).as("measured cut-off at %d replicas", replicas).isNotNull();
    return cutoff;
  }

  @Test
  void sigmaFromTheCutoffsPredictsTheThreeReplicaCutoffWithin10Percent() throws IOException {
    ModelFit fit = engine.fit(List.of(run(1), run(2)), P95_50MS);

    assertThat(fit.reasons()).isEmpty();
    assertThat(fit.trusted()).isTrue();
    assertThat(fit.sigmaFitted()).isTrue();
    assertThat(fit.notes()).anyMatch(n -> n.startsWith("σ ") && n.contains("measured cut-offs"));
    // the law reproduces the two cut-offs it was made from
    assertThat(fit.model().cutoffRps(50, 1)).isCloseTo(measuredCutoff(1), within(0.05 * 35));
    assertThat(fit.model().cutoffRps(50, 2)).isCloseTo(measuredCutoff(2), within(0.05 * 52));
    double measured3 = measuredCutoff(3);
    assertThat(fit.model().cutoffRps(50, 3)).isCloseTo(measured3, within(0.10 * measured3));
    // and is far from linear scaling, which over-predicts by two thirds
    assertThat(3 * measuredCutoff(1)).isGreaterThan(1.5 * measured3);
  }

  @Test
  void withoutATargetSigmaIsFittedOnTheStepsAndTheFitIsRefused() throws IOException {
    List<RatePoint> points = new java.util.ArrayList<>();
    for (int replicas : new int[] {1, 2}) {
      CalibrationRun r = run(replicas);
      r.steps().forEach(s -> points.add(RatePoint.of(s, replicas, 95)));
    }
    ModelFit fit = new BestFit(FitPolicy.defaults(), DetectionPolicy.defaults()).fit(points, 95);

    assertThat(fit.trusted()).isFalse();
    assertThat(fit.notes()).noneMatch(n -> n.contains("measured cut-offs"));
  }
}
