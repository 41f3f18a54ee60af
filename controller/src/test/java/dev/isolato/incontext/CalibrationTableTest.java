package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CalibrationTableTest {
  static final String TABLE =
      "{\"version\":\"v1\",\"tenants\":{\"t1\":{\"profile\":{\"cpu\":150},\"rateRps\":30.0,"
          + "\"burst\":30.0},\"t2\":{\"profile\":{\"cpu\":10}}}}";

  @Test
  void theReplicaGetsTheSameTenantsAndProfilesWithoutRateLimits() {
    String out = CalibrationTable.unlimited(TABLE);
    assertThat(out)
        .isEqualTo(
            "{\"version\":\"v1\",\"tenants\":{\"t1\":{\"profile\":{\"cpu\":150}},"
                + "\"t2\":{\"profile\":{\"cpu\":10}}}}");
    assertThat(CalibrationTable.tenants(TABLE)).containsExactly("t1", "t2");
  }

  @Test
  void aTableThatIsNotAnObjectIsRefused() {
    assertThatThrownBy(() -> CalibrationTable.unlimited("[1]"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CalibrationTable.tenants("{")).hasMessageContaining("not JSON");
  }
}
