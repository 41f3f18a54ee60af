package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ParallelWritesTest {
  @Test
  void writesOverlapAndAllFinishBeforeItReturns() {
    // each write waits until 4 are running at once: only a parallel run gets past the latch
    CountDownLatch together = new CountDownLatch(4);
    AtomicInteger done = new AtomicInteger();
    List<Runnable> writes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      writes.add(
          () -> {
            together.countDown();
            try {
              assertThat(together.await(10, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
            done.incrementAndGet();
          });
    }
    ParallelWrites.run(writes);
    assertThat(done).hasValue(4);
  }

  @Test
  void theFirstFailureIsThrownOnceEveryWriteFinished() {
    var finished = ConcurrentHashMap.<Integer>newKeySet();
    List<Runnable> writes = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      int n = i;
      writes.add(
          () -> {
            if (n == 3) {
              throw new IllegalArgumentException("HTTP 409 on tenant 3");
            }
            finished.add(n);
          });
    }
    assertThatThrownBy(() -> ParallelWrites.run(writes))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tenant 3");
    assertThat(finished).hasSize(19);
  }
}
