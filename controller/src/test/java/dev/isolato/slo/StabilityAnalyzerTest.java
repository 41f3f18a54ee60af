package dev.isolato.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StabilityAnalyzerTest {
  private final StabilityAnalyzer analyzer = new StabilityAnalyzer(StabilityPolicy.defaults());

  @Test
  void withoutTheBaselineContextTheMedianIsTheBaseline() {
    StabilityReport r =
        analyzer.analyze(
            "gold",
            List.of(
                new ContextCutoff("a", 100, List.of()),
                new ContextCutoff("b", 120, List.of()),
                new ContextCutoff("c", 105, List.of())),
            Set.of());

    assertThat(r.baselineLabel()).isEqualTo("median");
    assertThat(r.baselineRps()).isEqualTo(105.0);
    assertThat(r.spreadPct()).isEqualTo(100.0 * 20 / 105);
    assertThat(r.contexts())
        .extracting(ContextStability::unstable)
        .containsExactly(false, true, false);
    assertThat(r.contexts().get(1).reasons())
        .singleElement()
        .asString()
        .isEqualTo("cut-off 120.0 rps deviates +14.3% from median 105.0 rps (limit ±10.0%)");
  }

  @Test
  void ioCoLocationIsUnsafeOnlyWhenBothSidesAreIoIntensive() {
    List<ContextCutoff> cutoffs =
        List.of(
            new ContextCutoff("alone", 100, List.of()),
            new ContextCutoff("with-io", 100, List.of("bronze-io")));

    assertThat(analyzer.analyze("gold-cpu", cutoffs, Set.of("bronze-io")).stable()).isTrue();
    StabilityReport io = analyzer.analyze("gold-io", cutoffs, Set.of("gold-io", "bronze-io"));
    assertThat(io.stable()).isFalse();
    assertThat(io.contexts().get(1).ioUnsafe()).isTrue();
    assertThat(io.contexts().get(1).unstable()).isFalse();
  }

  @Test
  void rejectsEmptyOrNonPositiveInput() {
    assertThatThrownBy(() -> analyzer.analyze("gold", List.of(), Set.of()))
        .hasMessageContaining("at least one");
    assertThatThrownBy(
            () -> analyzer.analyze("gold", List.of(new ContextCutoff("x", 0, List.of())), Set.of()))
        .hasMessageContaining("context x must be > 0");
  }
}
