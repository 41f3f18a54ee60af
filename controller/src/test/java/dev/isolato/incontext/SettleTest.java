package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isolato.DocClaim;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The context watch's hysteresis: a new value counts once it has held for the settle time. */
class SettleTest {
  static final Instant T0 = Instant.parse("2026-11-27T12:00:00Z");
  static final Settle.Seen<String> QUIET = new Settle.Seen<>("quiet", T0.minusSeconds(600));

  static Instant at(long seconds) {
    return T0.plusSeconds(seconds);
  }

  @Test
  @DocClaim(
      "docs/calibration.md: a neighbour's replica that comes and goes within the settle time changes nothing")
  void aFlipBackWithinTheSettleTimeChangesNothing() {
    Settle<String> s = new Settle<>(Duration.ofSeconds(30));
    assertThat(s.see("gold", QUIET, "crowded", at(0))).isEqualTo(QUIET);
    assertThat(s.pending("gold")).contains(new Settle.Seen<>("crowded", at(0)));
    assertThat(s.see("gold", QUIET, "crowded", at(20))).isEqualTo(QUIET);
    assertThat(s.see("gold", QUIET, "quiet", at(28))).as("back before 30 s").isEqualTo(QUIET);
    assertThat(s.pending("gold")).isEmpty();
    // seen again: the wait starts afresh, not from the first sighting
    assertThat(s.see("gold", QUIET, "crowded", at(40))).isEqualTo(QUIET);
    assertThat(s.see("gold", QUIET, "crowded", at(60))).isEqualTo(QUIET);
    assertThat(s.see("gold", QUIET, "crowded", at(69))).isEqualTo(QUIET);
  }

  @Test
  @DocClaim(
      "docs/calibration.md: A new context counts once it has held for `isolato.calibration.context-settle`")
  void aChangeHeldForTheSettleTimeCountsSinceItWasFirstSeen() {
    Settle<String> s = new Settle<>(Duration.ofSeconds(30));
    s.see("gold", QUIET, "crowded", at(0));
    s.see("gold", QUIET, "crowded", at(10));
    assertThat(s.see("gold", QUIET, "crowded", at(30)))
        .isEqualTo(new Settle.Seen<>("crowded", at(0)));
    assertThat(s.pending("gold")).isEmpty();
  }

  @Test
  void anotherNewValueStartsTheWaitAgain() {
    Settle<String> s = new Settle<>(Duration.ofSeconds(30));
    s.see("gold", QUIET, "crowded", at(0));
    assertThat(s.see("gold", QUIET, "elsewhere", at(20))).isEqualTo(QUIET);
    assertThat(s.see("gold", QUIET, "elsewhere", at(40))).isEqualTo(QUIET);
    assertThat(s.see("gold", QUIET, "elsewhere", at(50)))
        .isEqualTo(new Settle.Seen<>("elsewhere", at(20)));
  }

  @Test
  @DocClaim("docs/calibration.md: the pool's first placement counts at once")
  void withNothingCountedTheValueSeenCountsAtOnce() {
    Settle<String> s = new Settle<>(Duration.ofSeconds(30));
    s.see("gold", QUIET, "crowded", at(0));
    assertThat(s.see("gold", null, "placed", at(5))).isEqualTo(new Settle.Seen<>("placed", at(5)));
    assertThat(s.pending("gold")).as("nothing left on its way").isEmpty();
  }

  @Test
  void keysSettleApartAndGoneKeysAreForgotten() {
    Settle<String> s = new Settle<>(Duration.ofSeconds(30));
    s.see("gold", QUIET, "crowded", at(0));
    s.see("silver", QUIET, "crowded", at(20));
    assertThat(s.see("gold", QUIET, "crowded", at(30)).value()).isEqualTo("crowded");
    assertThat(s.see("silver", QUIET, "crowded", at(30)).value()).isEqualTo("quiet");
    s.retain(Set.of("gold"));
    assertThat(s.pending("silver")).isEmpty();
  }

  @Test
  void zeroSettlesAtOnceAndANegativeTimeIsRefused() {
    Settle<String> s = new Settle<>(Duration.ZERO);
    assertThat(s.see("gold", QUIET, "crowded", at(0)))
        .isEqualTo(new Settle.Seen<>("crowded", at(0)));
    assertThatThrownBy(() -> new Settle<String>(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
