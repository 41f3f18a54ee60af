package dev.isolato.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DirectFloorTest {
  static final Instant NOW = Instant.parse("2026-11-29T04:00:00Z");

  @Test
  void aRaiseIsTheMinimumUntilItsHoldEnds() {
    Optional<DirectFloor> floor = Optional.of(DirectFloor.of(3, NOW, Duration.ofSeconds(120)));
    assertThat(DirectFloor.minReplicas(1, 4, floor, NOW)).isEqualTo(3);
    assertThat(DirectFloor.minReplicas(1, 4, floor, NOW.plusSeconds(119))).isEqualTo(3);
    assertThat(DirectFloor.minReplicas(1, 4, floor, NOW.plusSeconds(120))).isEqualTo(1);
    assertThat(DirectFloor.remaining(floor, NOW.plusSeconds(100))).contains(Duration.ofSeconds(20));
    assertThat(DirectFloor.remaining(floor, NOW.plusSeconds(120))).isEmpty();
  }

  @Test
  void neverAboveTheClassMaximumNorBelowThePlan() {
    Optional<DirectFloor> floor = Optional.of(DirectFloor.of(9, NOW, Duration.ofMinutes(1)));
    assertThat(DirectFloor.minReplicas(1, 4, floor, NOW)).isEqualTo(4);
    Optional<DirectFloor> low = Optional.of(DirectFloor.of(2, NOW, Duration.ofMinutes(1)));
    assertThat(DirectFloor.minReplicas(3, 5, low, NOW)).isEqualTo(3);
    assertThat(DirectFloor.minReplicas(3, 5, Optional.empty(), NOW)).isEqualTo(3);
  }

  @Test
  void itsAnnotationsReadBack() {
    DirectFloor floor = DirectFloor.of(2, NOW, Duration.ofSeconds(90));
    assertThat(floor.annotations())
        .containsEntry(DirectFloor.REPLICAS, "2")
        .containsEntry(DirectFloor.UNTIL, "2026-11-29T04:01:30Z");
    assertThat(DirectFloor.read(floor.annotations())).contains(floor);
  }

  @Test
  void malformedOrForgedAnnotationsHoldNothing() {
    assertThat(DirectFloor.read(null)).isEmpty();
    assertThat(DirectFloor.read(Map.of(DirectFloor.REPLICAS, "2"))).isEmpty();
    assertThat(read("two", "2026-11-29T04:01:00Z")).isEmpty();
    assertThat(read("2", "tomorrow")).isEmpty();
    assertThat(read("0", "2026-11-29T04:01:00Z")).isEmpty();
    assertThat(read("-3", "2026-11-29T04:01:00Z")).isEmpty();
    assertThat(read("99999999999", "2026-11-29T04:01:00Z")).isEmpty();
    // a far-future end written by hand is not honoured: at most MAX_HOLD from now
    Optional<DirectFloor> forever = read("3", "2126-11-29T04:00:00Z");
    assertThat(forever).isPresent();
    assertThat(DirectFloor.minReplicas(1, 4, forever, NOW)).isEqualTo(1);
    assertThat(DirectFloor.remaining(forever, NOW)).isEmpty();
  }

  @Test
  void aHoldOutsideItsBoundsIsRefused() {
    assertThatThrownBy(() -> DirectFloor.of(2, NOW, Duration.ofMinutes(11)))
        .hasMessageContaining("hold");
    assertThatThrownBy(() -> DirectFloor.of(2, NOW, Duration.ofSeconds(-1)))
        .hasMessageContaining("hold");
    assertThatThrownBy(() -> new DirectFloor(0, NOW)).hasMessageContaining("at least one");
  }

  private static Optional<DirectFloor> read(String replicas, String until) {
    return DirectFloor.read(Map.of(DirectFloor.REPLICAS, replicas, DirectFloor.UNTIL, until));
  }
}
