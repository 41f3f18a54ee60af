package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.incontext.NodeContexts.PodOnNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeContextsTest {
  static PodOnNode serving(String node, String cls) {
    return new PodOnNode(node, cls, null, true, false);
  }

  @Test
  void everyNodeOfThePoolWithItsNeighbourClassesAndNodeType() {
    Map<String, List<PodOnNode>> byNode =
        Map.of(
            "n1",
            List.of(
                serving("n1", "gold"),
                serving("n1", "bronze"),
                serving("n1", "bronze"),
                new PodOnNode("n1", "logs", null, true, true),
                new PodOnNode("n1", "gold", "calibration", false, false),
                new PodOnNode("n1", "silver", "calibration", false, false)),
            "n2",
            List.of(serving("n2", "gold"), new PodOnNode("n2", "bronze", "filler", false, false)),
            "n3",
            List.of(serving("n3", "bronze"), new PodOnNode("n3", "gold", "filler", false, false)));
    var contexts = NodeContexts.ofPool("gold", byNode, Map.of("n1", "Xeon"));
    assertThat(contexts)
        .as("n3 holds only gold's filler: no serving pod of the pool")
        .containsOnlyKeys("n1", "n2");
    assertThat(contexts.get("n1"))
        .as("another class's calibration replica is no neighbour")
        .isEqualTo(new ContextKey("Xeon", List.of("bronze", "logs"), List.of("logs")));
    assertThat(contexts.get("n2"))
        .as("another class's filler is, and n2's node type is unknown")
        .isEqualTo(new ContextKey(null, List.of("bronze"), List.of()));
    assertThat(NodeContexts.neighbourPods("gold", byNode.get("n1")))
        .isEqualTo(Map.of("bronze", 2, "logs", 1));
  }
}
