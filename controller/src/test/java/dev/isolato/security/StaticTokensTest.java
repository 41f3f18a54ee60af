package dev.isolato.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class StaticTokensTest {
  static final long SECOND = 1_000_000_000L;
  final AtomicLong now = new AtomicLong();

  @Test
  void adminLinesAreEveryNonBlankLine() {
    Map<String, Caller> m = StaticTokens.adminLines(List.of("  abc ", "", "# comment", "def"), "f");
    assertThat(m).containsOnlyKeys(StaticTokens.hash("abc"), StaticTokens.hash("def"));
    assertThat(m.get(StaticTokens.hash("def"))).isInstanceOf(Caller.Admin.class);
  }

  @Test
  void tenantLinesNameTheirTenantAndBadLinesAreRefusedWithoutEchoingTheToken() {
    Map<String, Caller> m = StaticTokens.tenantLines(List.of("t1 acme", "t2\tglobex", ""), "f");
    assertThat(m.get(StaticTokens.hash("t1")))
        .isEqualTo(new Caller.TenantUser("tenant token of 'acme' (f)", "acme"));
    assertThat(((Caller.TenantUser) m.get(StaticTokens.hash("t2"))).tenantId()).isEqualTo("globex");
    assertThatThrownBy(
            () ->
                StaticTokens.tenantLines(List.of("ok acme", "secret-only", "a b c"), "tenants.txt"))
        .hasMessageContaining("tenants.txt: line 2 has 1 fields")
        .hasMessageContaining("line 3 has 3 fields")
        .hasMessageNotContaining("secret-only");
  }

  @Test
  void secretValuesAreTokensAndTenantKeysAreTenantIds() {
    assertThat(StaticTokens.adminValues(Map.of("ci", "x1\n", "empty", ""), "s"))
        .containsOnlyKeys(StaticTokens.hash("x1"));
    assertThat(StaticTokens.tenantValues(Map.of("acme", "y1"), "s").get(StaticTokens.hash("y1")))
        .isEqualTo(new Caller.TenantUser("tenant token of 'acme' (s)", "acme"));
  }

  @Test
  void aRotatedTokenStopsWorkingWithinTheRefreshAndSourcesAreReadOncePerRefresh() {
    AtomicReference<String> current = new AtomicReference<>("old");
    AtomicInteger reads = new AtomicInteger();
    StaticTokens tokens =
        new StaticTokens(
            List.of(
                new StaticTokens.Source(
                    "file",
                    false,
                    () -> {
                      reads.incrementAndGet();
                      return StaticTokens.adminLines(List.of(current.get()), "file");
                    })),
            10 * SECOND,
            now::get);
    assertThat(tokens.find("old")).isPresent();
    current.set("new");
    for (int i = 0; i < 1000; i++) {
      tokens.find("random-" + i);
    }
    assertThat(reads).as("one read for a flood of unknown tokens").hasValue(1);
    now.addAndGet(10 * SECOND);
    assertThat(tokens.find("old")).isEmpty();
    assertThat(tokens.find("new")).isPresent();
    assertThat(reads).hasValue(2);
  }

  @Test
  void aSourceThatFailsKeepsItsPreviousTokensAndIsRetriedSoon() {
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    AtomicInteger reads = new AtomicInteger();
    StaticTokens tokens =
        new StaticTokens(
            List.of(
                new StaticTokens.Source(
                    "secret",
                    false,
                    () -> {
                      reads.incrementAndGet();
                      if (failure.get() != null) {
                        throw failure.get();
                      }
                      return StaticTokens.adminLines(List.of("kept"), "secret");
                    })),
            60 * SECOND,
            now::get);
    assertThat(tokens.find("kept")).isPresent();
    failure.set(new IllegalStateException("API server down"));
    now.addAndGet(60 * SECOND);
    assertThat(tokens.find("kept")).isPresent();
    assertThat(reads).hasValue(2);
    failure.set(null);
    now.addAndGet(SECOND);
    tokens.find("kept");
    assertThat(reads).as("retried after a second, not a full refresh").hasValue(3);
  }

  @Test
  void aTokenListedAsAdminAndTenantGetsTheTenantRole() {
    StaticTokens tokens =
        new StaticTokens(
            List.of(
                new StaticTokens.Source(
                    "admins", false, () -> StaticTokens.adminLines(List.of("both"), "admins")),
                new StaticTokens.Source(
                    "tenants",
                    true,
                    () -> StaticTokens.tenantLines(List.of("both acme"), "tenants"))),
            SECOND,
            now::get);
    assertThat(tokens.find("both"))
        .hasValueSatisfying(c -> assertThat(c).isInstanceOf(Caller.TenantUser.class));
  }
}
