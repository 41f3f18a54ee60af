package dev.isolato.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PoolsPropertiesTest {
  private static IsolatoProperties.Pools withTableCheck(Duration d) {
    return new IsolatoProperties.Pools(null, null, null, null, null, null, null, d);
  }

  @Test
  void theTableCheckDefaultsToFourMinutesAndANonPositiveOneMeansTheDefault() {
    assertThat(withTableCheck(null).tableCheck()).isEqualTo(Duration.ofMinutes(4));
    assertThat(withTableCheck(Duration.ZERO).tableCheck()).isEqualTo(Duration.ofMinutes(4));
    assertThat(withTableCheck(Duration.ofSeconds(-1)).tableCheck())
        .isEqualTo(Duration.ofMinutes(4));
    assertThat(withTableCheck(Duration.ofSeconds(30)).tableCheck())
        .isEqualTo(Duration.ofSeconds(30));
  }
}
