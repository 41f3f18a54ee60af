package dev.isolato.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The comparison behind the pool objects' matcher: equality, quantities by value. */
class QuantityAwareMatcherTest {
  @Test
  void quantitiesCompareByValueAsTheApiServerCanonicalisesThem() {
    assertThat(QuantityAwareMatcher.same(Map.of("cpu", "1"), Map.of("cpu", "1000m"))).isTrue();
    assertThat(QuantityAwareMatcher.same(Map.of("memory", "1Gi"), Map.of("memory", "1024Mi")))
        .isTrue();
    assertThat(QuantityAwareMatcher.same(Map.of("cpu", "2"), Map.of("cpu", "1000m"))).isFalse();
    assertThat(QuantityAwareMatcher.same(Map.of("s", "abc"), Map.of("s", "abd"))).isFalse();
  }

  @Test
  void anExtraOrMissingKeyIsAMismatchUnlikeASubsetTest() {
    // what a label, annotation or data key no longer desired looks like
    Map<String, Object> actual = Map.of("labels", Map.of("a", "1", "stale", "yes"));
    Map<String, Object> desired = Map.of("labels", Map.of("a", "1"));
    assertThat(QuantityAwareMatcher.same(actual, desired)).isFalse();
    assertThat(QuantityAwareMatcher.same(desired, actual)).isFalse();
  }

  @Test
  void listsMatchElementByElementAndNumbersByValue() {
    assertThat(
            QuantityAwareMatcher.same(
                List.of(Map.of("port", 8080)), List.of(Map.of("port", 8080L))))
        .isTrue();
    assertThat(QuantityAwareMatcher.same(List.of(2.0), List.of(2))).isTrue();
    assertThat(QuantityAwareMatcher.same(List.of(1, 2), List.of(2, 1))).isFalse();
    assertThat(QuantityAwareMatcher.same(List.of(1), List.of(1, 2))).isFalse();
  }
}
