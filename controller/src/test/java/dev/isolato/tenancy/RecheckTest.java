package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import dev.isolato.tenancy.SloClassReconciler.PoolOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** When the class reconciler looks at a class again, by what became of its pools. */
class RecheckTest {
  static final PoolOutcome SERVED = new PoolOutcome("isolato-c-a", null, null, false);
  static final PoolOutcome WAITING = new PoolOutcome("isolato-c-a", null, null, true);

  @Test
  @DocClaim("docs/troubleshooting.md: The controller retries every 0.5 s;")
  void aPoolWhoseTenantsWaitForPodsOrAPushIsLookedAtAgainIn500Ms() {
    assertThat(PoolOutcome.recheck(List.of(SERVED, WAITING))).hasValue(Duration.ofMillis(500));
  }

  @Test
  @DocClaim("docs/troubleshooting.md: the pool is retried every 0.5 s from a fresh read")
  void aPoolTheApiServerRefusedIsRetriedIn500Ms() {
    assertThat(
            PoolOutcome.recheck(
                List.of(
                    SERVED,
                    PoolOutcome.failed("isolato-c-b", "HTTP 403 namespace is terminating"))))
        .hasValue(Duration.ofMillis(500));
  }

  @Test
  void conflictsAreLookedAtLessOftenAndAServedClassOnlyOnEvents() {
    assertThat(
            PoolOutcome.recheck(
                List.of(new PoolOutcome("isolato-c-a", "NamespaceConflict", "not ours", true))))
        .hasValue(Duration.ofSeconds(10));
    assertThat(PoolOutcome.recheck(List.of(SERVED))).isEqualTo(Optional.empty());
  }
}
