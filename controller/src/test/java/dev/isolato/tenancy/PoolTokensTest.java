package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PoolTokensTest {
  @Test
  void eachPoolHasItsOwnTokenUnderOneKey() {
    String key = PoolTokens.newKey();
    assertThat(PoolTokens.token(key, "isolato-c-gold"))
        .hasSize(64)
        .isEqualTo(PoolTokens.token(key, "isolato-c-gold"))
        .isNotEqualTo(PoolTokens.token(key, "isolato-c-bronze"))
        .isNotEqualTo(PoolTokens.token(PoolTokens.newKey(), "isolato-c-gold"));
  }

  @Test
  void aKnownHmacVector() {
    // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?"
    assertThat(PoolTokens.token("Jefe", "what do ya want for nothing?"))
        .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  }

  @Test
  void duringARotationTheFileListsNewThenPreviousUntilConfirmed() {
    var keys = new PoolTokens.Keys("k2", "k1");
    String ns = "isolato-c-gold";
    List<String> both = PoolTokens.tokens(keys, ns, false);
    assertThat(both).containsExactly(PoolTokens.token("k2", ns), PoolTokens.token("k1", ns));
    assertThat(PoolTokens.tokens(keys, ns, true)).containsExactly(PoolTokens.token("k2", ns));
    assertThat(PoolTokens.tokens(new PoolTokens.Keys("k2", null), ns, false)).hasSize(1);
    assertThat(PoolTokens.parse(PoolTokens.file(both))).isEqualTo(both);
    assertThat(PoolTokens.parse(" a \n\n b\n")).containsExactly("a", "b");
    assertThat(new PoolTokens.Keys("k", "k").previous())
        .as("a key is not its own previous")
        .isNull();
    assertThatThrownBy(() -> new PoolTokens.Keys(" ", null)).hasMessageContaining("missing");
  }
}
