package dev.isolato.gatling.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.isolato.calibration.LatencySummary;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PercentilesTest {

  private static long[] millisToNanos(long... millis) {
    return LongStream.of(millis).map(m -> m * 1_000_000).toArray();
  }

  @Test
  void nearestRankPercentilesOfOneToHundred() {
    long[] shuffled = LongStream.rangeClosed(1, 100).map(i -> (i * 37) % 100 + 1).toArray();
    LatencySummary s = Percentiles.ofNanos(millisToNanos(shuffled), 3);
    assertEquals(100, s.count());
    assertEquals(3, s.errors());
    assertEquals(50.0, s.p50());
    assertEquals(90.0, s.p90());
    assertEquals(95.0, s.p95());
    assertEquals(99.0, s.p99());
    assertEquals(100.0, s.max());
  }

  @Test
  void theP95sConfidenceIntervalIsTheSamplesAtTheBinomialRanks() {
    long[] shuffled = LongStream.rangeClosed(1, 300).map(i -> (i * 37) % 300 + 1).toArray();
    LatencySummary s = Percentiles.ofNanos(millisToNanos(shuffled), 0);
    assertEquals(285.0, s.p95());
    assertEquals(277.0, s.p95Low());
    assertEquals(293.0, s.p95High());
  }

  @Test
  void seventyOneSamplesGiveNoUpperBoundForTheP95() {
    LatencySummary s =
        Percentiles.ofNanos(millisToNanos(LongStream.rangeClosed(1, 71).toArray()), 0);
    assertEquals(63.0, s.p95Low());
    assertNull(s.p95High());
  }

  @Test
  void smallSampleTakesTheNextRankUp() {
    // n = 3: p50 -> rank ceil(1.5) = 2, p90/p95/p99 -> rank 3.
    LatencySummary s = Percentiles.ofNanos(millisToNanos(30, 10, 20), 0);
    assertEquals(20.0, s.p50());
    assertEquals(30.0, s.p95());
    assertEquals(30.0, s.max());
  }

  @Test
  void keepsMicrosecondResolution() {
    LatencySummary s = Percentiles.ofNanos(new long[] {4_123_456}, 0);
    assertEquals(4.123, s.p50());
  }

  @Test
  void noSamplesGiveACountOfZero() {
    assertEquals(new LatencySummary(0, 0, 0, 0, 0, 0, 0), Percentiles.ofNanos(new long[0], 0));
  }

  @Test
  void rejectsMoreErrorsThanSamples() {
    assertThrows(IllegalArgumentException.class, () -> Percentiles.ofNanos(new long[] {1}, 2));
  }
}
