package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QueueModelTest {
  private final QueueModel m = new QueueModel(8, 2, 50, 0.1);

  @Test
  void latencyIsFlatThenInfiniteAtTheCapacity() {
    assertThat(m.latencyAtLoad(0)).isEqualTo(8.0);
    assertThat(m.latencyAtLoad(25)).isCloseTo(10.0, within(1e-12));
    assertThat(m.latencyAtLoad(50)).isInfinite();
    assertThat(m.latencyAtLoad(70)).isInfinite();
  }

  @ParameterizedTest
  @CsvSource({"20, 1", "50, 2", "120, 3"})
  void theCutoffIsWhereLatencyReachesTheTarget(double target, int replicas) {
    double cutoff = m.cutoffRps(target, replicas);
    assertThat(m.latencyMs(cutoff, replicas)).isCloseTo(target, within(1e-9 * target));
    assertThat(cutoff).isLessThan(50 * m.effectiveReplicas(replicas));
  }

  @Test
  void edgeCutoffs() {
    assertThat(m.perReplicaCutoffRps(8)).isZero();
    assertThat(new QueueModel(8, 0, 50, 0).perReplicaCutoffRps(20)).isEqualTo(50.0);
    assertThat(new QueueModel(8, 0, 50, 0).replicasFor(120, 20)).hasValue(3);
  }

  @Test
  void replicasForGoesThroughTheSharedInterface() {
    LatencyModel model = m;
    int replicas = model.replicasFor(200, 50).orElseThrow();
    assertThat(model.cutoffRps(50, replicas)).isGreaterThanOrEqualTo(200);
    assertThat(model.cutoffRps(50, replicas - 1)).isLessThan(200);
  }

  @Test
  void rejectsParametersOutsideTheDomain() {
    assertThatThrownBy(() -> new QueueModel(0, 1, 50, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new QueueModel(8, -1, 50, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new QueueModel(8, 1, 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new QueueModel(8, 1, 50, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
