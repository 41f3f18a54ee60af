package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextKeyTest {
  static final String XEON = "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz";

  @Test
  @DocClaim(
      "docs/calibration.md: `in-context:<CPU model>[+<neighbour classes>][;io=<IO-heavy neighbours>]`")
  void theLabelRoundTripsWithNeighboursAndIoNeighboursSorted() {
    ContextKey k = new ContextKey(XEON, List.of("silver", "bronze"), List.of("logs"));
    assertThat(k.label()).isEqualTo("in-context:" + XEON + "+bronze,silver;io=logs");
    assertThat(ContextKey.parse(k.label())).contains(k);
    ContextKey alone = new ContextKey(" AMD EPYC 7B13 ", null, null);
    assertThat(alone.label()).isEqualTo("in-context:AMD EPYC 7B13");
    assertThat(ContextKey.parse(alone.label())).contains(alone);
    assertThat(ContextKey.parse("in-context:cpu?+bronze"))
        .contains(new ContextKey(null, List.of("bronze"), List.of()));
  }

  @Test
  void aPostedRunsLabelIsNoKey() {
    assertThat(ContextKey.parse("alone")).isEmpty();
    assertThat(ContextKey.parse("homogeneous")).isEmpty();
    assertThat(ContextKey.parse(null)).isEmpty();
  }

  @Test
  void matchingNeedsAKnownEqualNodeTypeAndTheSameNeighbourAndIoSets() {
    ContextKey k = new ContextKey(XEON, List.of("bronze"), List.of());
    assertThat(k.matches(new ContextKey(XEON + " ", List.of("bronze"), null))).isTrue();
    assertThat(k.matches(new ContextKey("AMD EPYC 7B13", List.of("bronze"), null))).isFalse();
    assertThat(k.matches(new ContextKey(XEON, List.of("bronze", "silver"), null))).isFalse();
    assertThat(k.matches(new ContextKey(XEON, List.of(), null))).isFalse();
    assertThat(k.matches(new ContextKey(XEON, List.of("bronze"), List.of("bronze")))).isFalse();
    ContextKey unknown = new ContextKey(null, List.of("bronze"), null);
    assertThat(unknown.matches(unknown)).as("an unknown node type matches nothing").isFalse();
    assertThat(k.matches(null)).isFalse();
  }

  @Test
  void changesAreNamed() {
    ContextKey before = new ContextKey(XEON, List.of("bronze"), List.of());
    assertThat(
            new ContextKey(XEON, List.of("bronze", "silver"), List.of("silver"))
                .changesFrom(before))
        .containsExactly("neighbour class silver came", "neighbour class silver is IO-heavy");
    assertThat(new ContextKey(null, List.of(), null).changesFrom(before))
        .containsExactly(
            "node type " + XEON + " → unknown (never calibrated on this node)",
            "neighbour class bronze left");
    assertThat(before.changesFrom(before)).isEmpty();
  }
}
