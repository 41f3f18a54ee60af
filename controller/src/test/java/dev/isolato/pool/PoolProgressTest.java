package dev.isolato.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.tenancy.PoolTokens;
import dev.isolato.tenancy.SloPool;
import dev.isolato.tenancy.SloPoolSpec;
import dev.isolato.tenancy.SloPoolStatus;
import dev.isolato.tenancy.TablePusher;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoolProgressTest {
  static final String TABLE = "{\"tenants\":{},\"version\":\"v2\"}";
  final Instant now = Instant.parse("2026-11-27T12:00:00Z");
  final PoolTokens.Keys keys = new PoolTokens.Keys("key-1", null);
  final PoolTokens.Keys rotated = new PoolTokens.Keys("key-2", "key-1");

  static SloPool pool(SloPoolStatus status) {
    SloPool p = new SloPool();
    p.setMetadata(new ObjectMetaBuilder().withName("isolato-c-gold").withGeneration(3L).build());
    SloPoolSpec s = new SloPoolSpec();
    s.sloClass = "gold";
    s.table = TABLE;
    s.replicas = 2;
    p.setSpec(s);
    p.setStatus(status);
    return p;
  }

  static SloPoolStatus pushed(String version, int pods, String adminKey) {
    SloPoolStatus s = new SloPoolStatus();
    s.tableVersion = version;
    s.tablePods = pods;
    s.adminKey = adminKey;
    return s;
  }

  @Test
  void onlyAPoolWhoseObjectsWereAppliedPushesBesideTheWorkflow() {
    assertThat(PoolProgress.applied(null)).as("never reconciled").isFalse();
    var ready =
        PoolProgress.pushed(
                pool(null),
                new PoolProgress.Pods(2, 2),
                keys,
                false,
                new TablePusher.Result(2, 2, 2, List.of()),
                now)
            .status();
    assertThat(PoolProgress.applied(ready)).isTrue();
    var failed =
        PoolProgress.held(pool(ready), new PoolProgress.Failure(false, "quota: HTTP 500"), now)
            .status();
    assertThat(PoolProgress.applied(failed)).as("the last apply failed").isFalse();
  }

  @Test
  void aPushIsNeededForANewTableANewReadyPodOrARotation() {
    var two = new PoolProgress.Pods(2, 2);
    assertThat(PoolProgress.needsPush(pool(null), two, false)).as("never pushed").isTrue();
    assertThat(PoolProgress.needsPush(pool(pushed("v1", 2, null)), two, false))
        .as("older table")
        .isTrue();
    assertThat(PoolProgress.needsPush(pool(pushed("v2", 1, null)), two, false))
        .as("a pod became ready since")
        .isTrue();
    assertThat(PoolProgress.needsPush(pool(pushed("v2", 2, null)), two, false)).isFalse();
    assertThat(PoolProgress.needsPush(pool(pushed("v2", 2, null)), two, true))
        .as("rotating")
        .isTrue();
    assertThat(
            PoolProgress.needsPush(pool(pushed("v2", 2, null)), new PoolProgress.Pods(2, 1), false))
        .as("a pod went away: the others hold the table")
        .isFalse();
  }

  @Test
  void aCompletePushRecordsTheVersionThePodsAndTheKey() {
    var step =
        PoolProgress.pushed(
            pool(pushed("v1", 2, null)),
            new PoolProgress.Pods(2, 2),
            keys,
            false,
            new TablePusher.Result(2, 2, 2, List.of()),
            now);
    assertThat(step.status().tableVersion).isEqualTo("v2");
    assertThat(step.status().tablePods).isEqualTo(2);
    assertThat(step.status().tableMessage).isEqualTo(PoolProgress.SYNCED);
    assertThat(step.status().adminKey).isEqualTo(keys.fingerprint());
    assertThat(step.status().observedGeneration).isEqualTo(3L);
    assertThat(step.status().conditions.get(0).getStatus()).isEqualTo("True");
    assertThat(step.recheck()).isEmpty();
  }

  @Test
  void anIncompletePushKeepsTheOldVersionSaysWhyAndLooksAgainSoon() {
    var step =
        PoolProgress.pushed(
            pool(pushed("v1", 2, null)),
            new PoolProgress.Pods(2, 2),
            keys,
            false,
            new TablePusher.Result(2, 1, 1, List.of("10.0.0.2: HTTP 503")),
            now);
    assertThat(step.status().tableVersion).isEqualTo("v1");
    assertThat(step.status().tableMessage).contains("pushed to 1/2").contains("HTTP 503");
    assertThat(step.recheck()).contains(PoolProgress.PENDING_RECHECK);
  }

  @Test
  void aRotatedKeyIsConfirmedOnlyWhenEveryPodTookItsToken() {
    var partly =
        PoolProgress.pushed(
            pool(pushed("v2", 2, keys.fingerprint())),
            new PoolProgress.Pods(2, 2),
            rotated,
            true,
            new TablePusher.Result(2, 2, 1, List.of()),
            now);
    assertThat(partly.status().adminKey).isEqualTo(keys.fingerprint());
    assertThat(partly.recheck()).contains(PoolProgress.ROTATION_RECHECK);
    var everywhere =
        PoolProgress.pushed(
            pool(pushed("v2", 2, keys.fingerprint())),
            new PoolProgress.Pods(2, 2),
            rotated,
            true,
            new TablePusher.Result(2, 2, 2, List.of()),
            now);
    assertThat(everywhere.status().adminKey).isEqualTo(rotated.fingerprint());
    assertThat(everywhere.recheck())
        .as("the pool's Secret drops the previous token at the next pass")
        .contains(PoolProgress.PENDING_RECHECK);
  }

  @Test
  void aHeldPoolKeepsWhatItsPodsHoldAndSaysWhy() {
    var step =
        PoolProgress.held(
            pool(pushed("v1", 2, "k")),
            new PoolProgress.Failure(true, "Namespace isolato-c-gold is not Isolato's"),
            now);
    assertThat(step.status().tableVersion).isEqualTo("v1");
    assertThat(step.status().adminKey).isEqualTo("k");
    assertThat(step.status().conditions.get(0).getReason()).isEqualTo("NamespaceConflict");
    assertThat(step.recheck()).contains(PoolProgress.CONFLICT_RECHECK);
    var failed = PoolProgress.held(pool(null), new PoolProgress.Failure(false, "HTTP 500"), now);
    assertThat(failed.status().conditions.get(0).getReason()).isEqualTo("ApplyFailed");
    assertThat(failed.recheck()).contains(PoolProgress.PENDING_RECHECK);
  }

  @Test
  void anUnchangedPoolWritesNoNewStatus() {
    SloPool p = pool(null);
    var first = PoolProgress.unchanged(p, new PoolProgress.Pods(2, 0), keys, now);
    p.setStatus(first.status());
    var again = PoolProgress.unchanged(p, new PoolProgress.Pods(2, 0), keys, now.plusSeconds(5));
    assertThat(PoolProgress.same(first.status(), again.status())).isTrue();
    var moreReady = PoolProgress.unchanged(p, new PoolProgress.Pods(2, 1), keys, now);
    assertThat(PoolProgress.same(first.status(), moreReady.status())).isFalse();
  }
}
