package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import dev.isolato.incontext.ContextCutoffs.Choice;
import dev.isolato.incontext.ContextCutoffs.Figure;
import dev.isolato.slo.StabilityPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContextCutoffsTest {
  static final StabilityPolicy POLICY = StabilityPolicy.defaults();
  static final ContextKey QUIET = new ContextKey("Xeon", List.of(), List.of());
  static final ContextKey WITH_BRONZE = new ContextKey("Xeon", List.of("bronze"), List.of());
  static final ContextKey OTHER_CPU = new ContextKey("EPYC", List.of(), List.of());

  static Choice choose(List<Figure> figures, Map<String, ContextKey> nodes, double declared) {
    return ContextCutoffs.choose("gold", false, figures, nodes, declared, POLICY);
  }

  @Test
  @DocClaim(
      "docs/calibration.md: the planner uses the figure measured in the context the pool runs in")
  void theFigureOfThePoolsContextNotTheNewestOne() {
    List<Figure> figures =
        List.of(
            new Figure(QUIET.label(), 100),
            new Figure(WITH_BRONZE.label(), 70),
            new Figure("alone", 165),
            new Figure(OTHER_CPU.label(), 140));
    Choice c = choose(figures, Map.of("n1", WITH_BRONZE), 90);
    assertThat(c.match()).isEqualTo(ContextCutoffs.MATCHED);
    assertThat(c.perPodRps()).isEqualTo(70);
    assertThat(c.measuredIn()).containsExactly(WITH_BRONZE.label());
    assertThat(c.recalibrationDue()).isFalse();
    assertThat(choose(figures, Map.of("n1", QUIET), 90).perPodRps()).isEqualTo(100);
  }

  @Test
  @DocClaim(
      "docs/calibration.md: the newest of that context's figures when they agree, else their lowest")
  void theNewestOfAStableContextTheLowestOfAnUnstableOne() {
    List<Figure> stable = List.of(new Figure(QUIET.label(), 100), new Figure(QUIET.label(), 104));
    Choice s = choose(stable, Map.of("n1", QUIET), 90);
    assertThat(s.perPodRps()).isEqualTo(104);
    assertThat(s.stable()).isTrue();
    List<Figure> spread = List.of(new Figure(QUIET.label(), 80), new Figure(QUIET.label(), 120));
    Choice u = choose(spread, Map.of("n1", QUIET), 90);
    assertThat(u.perPodRps()).as("figures 40%% apart: the lowest").isEqualTo(80);
    assertThat(u.stable()).isFalse();
    assertThat(u.notes()).anyMatch(n -> n.contains("spread 40.0% (limit ±10.0%)"));
  }

  @Test
  @DocClaim(
      "docs/calibration.md: a figure from elsewhere may lower the plan, never raise it above the declared one")
  void noFigureForTheContextFallsBackToTheLowestAndMakesARecalibrationDue() {
    List<Figure> figures = List.of(new Figure(QUIET.label(), 100), new Figure("alone", 165));
    Choice c = choose(figures, Map.of("n1", WITH_BRONZE), 120);
    assertThat(c.match()).isEqualTo(ContextCutoffs.NO_MATCH);
    assertThat(c.perPodRps()).as("a figure from elsewhere lowers the plan").isEqualTo(100);
    assertThat(c.unmatched()).containsExactly(WITH_BRONZE.label());
    assertThat(c.recalibrationDue()).isTrue();
    assertThat(c.notes().get(0))
        .startsWith("no cut-off measured in " + WITH_BRONZE.label())
        .contains("a recalibration is due");
    Choice declared = choose(List.of(new Figure("alone", 165)), Map.of("n1", QUIET), 60);
    assertThat(declared.perPodRps())
        .as("a figure from elsewhere never raises the plan above the declared one")
        .isEqualTo(60);
    assertThat(declared.measuredIn()).containsExactly("declared");
  }

  @Test
  @DocClaim("docs/calibration.md: a node never calibrated on has none")
  void anUnknownNodeTypeMatchesNothing() {
    ContextKey unknown = new ContextKey(null, List.of(), List.of());
    Choice c = choose(List.of(new Figure(unknown.label(), 50)), Map.of("n1", unknown), 80);
    assertThat(c.match()).isEqualTo(ContextCutoffs.NO_MATCH);
  }

  @Test
  @DocClaim(
      "docs/calibration.md: A pool on several nodes is planned on the lowest of its nodes' figures")
  void aPoolOnSeveralNodesIsPlannedOnItsLowestAndOneUnmatchedNodeFallsBack() {
    List<Figure> figures =
        List.of(new Figure(QUIET.label(), 100), new Figure(WITH_BRONZE.label(), 70));
    Choice both = choose(figures, Map.of("n1", QUIET, "n2", WITH_BRONZE), 90);
    assertThat(both.match()).isEqualTo(ContextCutoffs.MATCHED);
    assertThat(both.perPodRps()).isEqualTo(70);
    Choice oneNew = choose(figures, Map.of("n1", QUIET, "n2", OTHER_CPU), 90);
    assertThat(oneNew.match()).isEqualTo(ContextCutoffs.NO_MATCH);
    assertThat(oneNew.perPodRps()).isEqualTo(70);
    assertThat(oneNew.unmatched()).containsExactly(OTHER_CPU.label());
  }

  @Test
  void noPodPlacedIsNoContext() {
    Choice c = choose(List.of(new Figure(QUIET.label(), 100)), Map.of(), 90);
    assertThat(c.match()).isEqualTo(ContextCutoffs.UNPLACED);
    assertThat(c.perPodRps()).isNull();
    assertThat(c.recalibrationDue()).isFalse();
  }

  @Test
  @DocClaim(
      "docs/calibration.md: it also names an IO-heavy pool next to an IO-heavy neighbour as unsafe")
  void anIoHeavyPoolNextToAnIoHeavyNeighbourIsNamedUnsafe() {
    ContextKey io = new ContextKey("Xeon", List.of("logs"), List.of("logs"));
    Choice c =
        ContextCutoffs.choose(
            "gold", true, List.of(new Figure(io.label(), 60)), Map.of("n1", io), 90, POLICY);
    assertThat(c.perPodRps()).isEqualTo(60);
    assertThat(c.notes()).anyMatch(n -> n.startsWith("unsafe: disk-IO-intensive gold"));
  }

  @Test
  @DocClaim("docs/calibration.md: a `Warning` when the figure moved beyond the stability limit")
  void aChangeOfContextIsSignificantWhenTheFigureMovesBeyondTheLimit() {
    var down = ContextCutoffs.shift("gold", 80, 60, POLICY);
    assertThat(down.deviationPct()).isEqualTo(-25);
    assertThat(down.unstable()).isTrue();
    assertThat(ContextWatch.shiftText(80, down))
        .isEqualTo("cut-off 80.0 → 60.0 req/s per pod (-25.0%, significant)");
    assertThat(ContextCutoffs.shift("gold", 80, 84, POLICY).unstable()).isFalse();
    assertThat(ContextCutoffs.shift("gold", 80, 100, POLICY).unstable())
        .as("a higher figure too")
        .isTrue();
  }
}
