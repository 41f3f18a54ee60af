package dev.isolato.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolRateTest {
  static final long S = 1_000_000_000L;

  @Test
  void theRateIsTheCountersGrowthOverTimeSummedOverPods() {
    PoolRate r = new PoolRate();
    assertThat(
            r.update(
                Map.of("a", new PoolRate.Sample(100, 0, 0), "b", new PoolRate.Sample(10, 0, 0))))
        .isNaN();
    assertThat(
            r.update(
                Map.of(
                    "a", new PoolRate.Sample(130, 0, S), "b", new PoolRate.Sample(20, 0, 2 * S))))
        .isCloseTo(30 + 5, within(1e-9));
  }

  @Test
  void queuedRequestsCountAsOfferedLoad() {
    PoolRate r = new PoolRate();
    r.update(Map.of("a", new PoolRate.Sample(0, 2, 0)));
    assertThat(r.update(Map.of("a", new PoolRate.Sample(40, 12, S)))).isCloseTo(50, within(1e-9));
    // the queue draining is not negative load
    assertThat(r.update(Map.of("a", new PoolRate.Sample(90, 2, 2 * S))))
        .isCloseTo(50, within(1e-9));
  }

  @Test
  void aNewOrRestartedPodCountsFromItsSecondScrape() {
    PoolRate r = new PoolRate();
    r.update(Map.of("a", new PoolRate.Sample(500, 0, 0)));
    assertThat(
            r.update(Map.of("a", new PoolRate.Sample(3, 0, S), "b", new PoolRate.Sample(7, 0, S))))
        .isNaN();
    assertThat(
            r.update(
                Map.of(
                    "a",
                    new PoolRate.Sample(13, 0, 2 * S),
                    "b",
                    new PoolRate.Sample(27, 0, 2 * S))))
        .isCloseTo(30, within(1e-9));
  }
}
