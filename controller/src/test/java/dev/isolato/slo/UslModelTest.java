package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class UslModelTest {

  @Property(tries = 300)
  void theSolvedCutoffIsWhereThePredictedLatencyMeetsTheTarget(
      @ForAll @DoubleRange(min = 1, max = 50) double s,
      @ForAll @DoubleRange(min = 0, max = 0.2) double alpha,
      @ForAll @DoubleRange(min = 0, max = 0.01) double beta,
      @ForAll @DoubleRange(min = 0, max = 0.5) double sigma,
      @ForAll @DoubleRange(min = 1.5, max = 20) double k,
      @ForAll @IntRange(min = 1, max = 64) int replicas) {
    UslModel m = new UslModel(s, alpha, beta, sigma);
    double target = k * s;
    double cutoff = m.cutoffRps(target, replicas);
    if (alpha == 0 && beta == 0) {
      assertThat(cutoff).isInfinite();
      return;
    }
    assertThat(m.latencyMs(cutoff, replicas)).isCloseTo(target, within(1e-6 * target));
    assertThat(m.latencyMs(cutoff * 0.99, replicas)).isLessThan(target);
  }

  @Property(tries = 300)
  void replicasForIsTheFewestReplicasWhoseCutoffCoversTheRate(
      @ForAll @DoubleRange(min = 10, max = 300) double perReplicaCutoff,
      @ForAll @DoubleRange(min = 0, max = 0.3) double sigma,
      @ForAll @DoubleRange(min = 1, max = 5000) double rate) {
    UslModel m = SyntheticRuns.modelWithCutoff(10, 5, perReplicaCutoff, 0.5, sigma);
    var replicas = m.replicasFor(rate, 50);
    if (replicas.isEmpty()) {
      assertThat(rate / perReplicaCutoff * sigma).isGreaterThanOrEqualTo(1 - 1e-9);
      return;
    }
    int r = replicas.getAsInt();
    assertThat(m.cutoffRps(50, r)).isGreaterThanOrEqualTo(rate * (1 - 1e-9));
    if (r > 1) {
      assertThat(m.cutoffRps(50, r - 1)).isLessThan(rate);
    }
  }

  @Test
  void sigmaMakesReplicasWorthLessThanLinear() {
    UslModel m = new UslModel(10, 0.01, 0.001, 0.1);
    assertThat(m.effectiveReplicas(1)).isEqualTo(1.0);
    assertThat(m.effectiveReplicas(2)).isCloseTo(2 / 1.1, within(1e-12));
    assertThat(m.effectiveReplicas(1000)).isLessThan(10);
  }

  @Test
  void rejectsParametersOutsideTheModelsDomain() {
    assertThatThrownBy(() -> new UslModel(0, 0.1, 0.1, 0)).hasMessageContaining("s > 0");
    assertThatThrownBy(() -> new UslModel(1, -0.1, 0.1, 0)).hasMessageContaining("α >= 0");
    assertThatThrownBy(() -> new UslModel(1, 0.1, 0.1, 1)).hasMessageContaining("0 <= σ < 1");
  }
}
