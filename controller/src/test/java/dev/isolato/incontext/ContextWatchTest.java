package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import dev.isolato.slo.StabilityPolicy;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassSpec;
import dev.isolato.tenancy.SloClassStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The context watch's pure parts: node types, figures, the status it writes. */
class ContextWatchTest {
  static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

  static SloClass cls(String name, SloClassStatus.CutoffPoint... points) {
    SloClass c = new SloClass();
    c.setMetadata(new ObjectMetaBuilder().withName(name).build());
    SloClassSpec s = new SloClassSpec();
    s.resources.cpu = "200m";
    s.perPodCutoffRps = 80;
    c.setSpec(s);
    c.setStatus(new SloClassStatus());
    c.getStatus().cutoffs = List.of(points);
    return c;
  }

  static SloClassStatus.CutoffPoint point(
      String context, String node, double rps, int pods, Long cpu, String at) {
    SloClassStatus.CutoffPoint p = new SloClassStatus.CutoffPoint();
    p.context = context;
    p.node = node;
    p.rps = rps;
    p.pods = pods;
    p.podCpuMillis = cpu;
    p.measuredAt = at;
    return p;
  }

  @Test
  @DocClaim(
      "docs/calibration.md: the CPU model any class's in-context calibration measured on that node")
  void aNodesTypeIsTheNewestCpuModelAnyClassMeasuredThere() {
    var types =
        ContextWatch.nodeTypes(
            List.of(
                cls(
                    "gold",
                    point("in-context:Xeon", "n1", 60, 1, 200L, "2026-11-27T10:00:00Z"),
                    point("alone", null, 165, 1, 200L, "2026-11-27T11:00:00Z")),
                cls(
                    "bronze",
                    point("in-context:EPYC+gold", "n1", 40, 1, 200L, "2026-11-27T11:30:00Z"),
                    point("in-context:Xeon", "n2", 40, 1, 200L, "2026-11-27T09:00:00Z"))));
    assertThat(types).isEqualTo(Map.of("n1", "EPYC", "n2", "Xeon"));

    SloClass older =
        cls("silver", point("in-context:Xeon", null, 50, 1, 200L, "2026-11-27T08:00:00Z"));
    older.getStatus().inContext = new SloClassStatus.InContext();
    older.getStatus().inContext.phase = CalibrationState.SUCCEEDED;
    older.getStatus().inContext.node = "n3";
    older.getStatus().inContext.cpuModel = " Xeon ";
    older.getStatus().inContext.finishedAt = "2026-11-27T08:00:00Z";
    assertThat(ContextWatch.nodeTypes(List.of(older)))
        .as("a figure stored before figures named their node: its calibration's node")
        .isEqualTo(Map.of("n3", "Xeon"));
    older.getStatus().inContext.phase = CalibrationState.FAILED;
    assertThat(ContextWatch.nodeTypes(List.of(older))).isEmpty();
  }

  @Test
  void figuresAreTheClassesAtThePodSizeItRuns() {
    SloClass c =
        cls(
            "gold",
            point("in-context:Xeon", "n1", 120, 2, 200L, "a"),
            point("in-context:Xeon", "n1", 90, 1, 400L, "b"),
            point("alone", null, 70, 1, null, "c"));
    assertThat(ContextWatch.figures(c))
        .as("400m is another size; a point of unrecorded size counts as the declared 200m")
        .containsExactly(
            new ContextCutoffs.Figure("in-context:Xeon", 60),
            new ContextCutoffs.Figure("alone", 70));
  }

  @Test
  void theStatusKeepsSinceWhileTheNodesStayAndNamesWhatChanged() {
    SloClass c = cls("gold", point("in-context:Xeon", "n1", 60, 1, 200L, "a"));
    c.getStatus().calibratedAt = "2026-11-27T10:00:00Z";
    var quiet = new TreeMap<String, ContextKey>(Map.of("n1", new ContextKey("Xeon", null, null)));
    var first = choose(c, quiet);
    SloClassStatus.Context x = ContextWatch.toStatus(c, first, quiet, null, NOW);
    assertThat(x.match).isEqualTo("Matched");
    assertThat(x.perPodCutoffRps).isEqualTo(60);
    assertThat(x.since).isEqualTo(NOW.toString());
    assertThat(x.changes).isEmpty();
    assertThat(x.calibratedAt).isEqualTo("2026-11-27T10:00:00Z");
    assertThat(x.declaredPerPodRps).isEqualTo(80);
    assertThat(ContextWatch.toStatus(c, first, quiet, x, NOW.plusSeconds(30)).since)
        .isEqualTo(NOW.toString());

    var crowded =
        new TreeMap<String, ContextKey>(
            Map.of("n1", new ContextKey("Xeon", List.of("bronze"), null)));
    SloClassStatus.Context y =
        ContextWatch.toStatus(c, choose(c, crowded), crowded, x, NOW.plusSeconds(60));
    assertThat(y.since).isEqualTo(NOW.plusSeconds(60).toString());
    assertThat(y.changes).containsExactly("node n1: neighbour class bronze came");
    assertThat(y.recalibrationDue).isTrue();
    assertThat(y.unmatched).containsExactly("in-context:Xeon+bronze");
    assertThat(InContextCalibrations.contextChange(y))
        .isEqualTo("no cut-off measured where the pool runs (in-context:Xeon+bronze)");
    assertThat(InContextCalibrations.contextChange(x)).isNull();
  }

  @Test
  void whatCountedIsReadBackFromTheStatusSoANewLeaderGoesOnFromIt() {
    SloClass c = cls("gold", point("in-context:Xeon", "n1", 60, 1, 200L, "a"));
    var nodes =
        new TreeMap<String, ContextKey>(
            Map.of(
                "n1", new ContextKey("Xeon", List.of("bronze", "silver"), List.of("bronze")),
                "n2", new ContextKey(null, null, null)));
    SloClassStatus.Context x = ContextWatch.toStatus(c, choose(c, nodes), nodes, null, NOW);
    assertThat(ContextWatch.counted(x)).isEqualTo(new Settle.Seen<>(nodes, NOW));
    assertThat(ContextWatch.counted(null)).isNull();
    x.nodes = Map.of();
    assertThat(ContextWatch.counted(x)).as("unplaced: the first placement counts at once").isNull();
  }

  @Test
  void aPoolWithNoPodWritesNoNodesNotAnEmptyMapThatServerSideApplyWouldTurnIntoNull() {
    SloClass c = cls("gold", point("in-context:Xeon", "n1", 60, 1, 200L, "a"));
    var none = new TreeMap<String, ContextKey>();
    SloClassStatus.Context x = ContextWatch.toStatus(c, choose(c, none), none, null, NOW);
    assertThat(x.nodes).isNull();
    assertThat(ContextWatch.counted(x)).isNull();
  }

  static ContextCutoffs.Choice choose(SloClass c, Map<String, ContextKey> nodes) {
    return ContextCutoffs.choose(
        "gold", false, ContextWatch.figures(c), nodes, 80, StabilityPolicy.defaults());
  }
}
