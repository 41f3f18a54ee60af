package dev.isolato.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenBucketTest {
  final AtomicLong now = new AtomicLong();

  @Test
  void aBurstThenTheRate() {
    TokenBucket b = new TokenBucket(3, 2, now::get);
    assertThat(take(b, 10)).as("the burst").isEqualTo(3);
    now.addAndGet(1_000_000_000L);
    assertThat(take(b, 10)).as("one second at 2/s").isEqualTo(2);
    now.addAndGet(250_000_000L);
    assertThat(take(b, 10)).as("a quarter second holds half a token").isZero();
    now.addAndGet(250_000_000L);
    assertThat(take(b, 10)).isEqualTo(1);
  }

  @Test
  void neverHoldsMoreThanItsCapacity() {
    TokenBucket b = new TokenBucket(5, 100, now::get);
    now.addAndGet(3_600_000_000_000L);
    assertThat(b.available()).isEqualTo(5);
    assertThat(take(b, 1000)).isEqualTo(5);
  }

  @Test
  void refusesANonsenseConfiguration() {
    assertThatThrownBy(() -> new TokenBucket(0, 1, now::get))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TokenBucket(1, 0, now::get))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static int take(TokenBucket b, int tries) {
    int n = 0;
    for (int i = 0; i < tries; i++) {
      n += b.tryTake() ? 1 : 0;
    }
    return n;
  }
}
