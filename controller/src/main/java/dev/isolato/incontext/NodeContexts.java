package dev.isolato.incontext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The contexts a class's pool runs in (issue 34 item 4), from the pods on the cluster's nodes: per
 * node that holds a serving pod of the pool, its node type and the other classes there. The
 * in-context calibration records its own node's neighbours with the same rule, so a figure and the
 * pool's node compare like with like.
 */
public final class NodeContexts {
  private NodeContexts() {}

  /**
   * A pod of some class as the context watch sees it.
   *
   * @param role the pod's {@code isolato.dev/role} (filler, calibration) or null for a serving pod
   * @param pool whether it is a serving pod of its class's pool
   * @param ioHeavy whether its pool is IO-heavy ({@code isolato.dev/io-heavy})
   */
  public record PodOnNode(
      String node, String sloClass, String role, boolean pool, boolean ioHeavy) {}

  /**
   * Other classes' pods on one node, by class: a calibration replica is no neighbour (it comes and
   * goes with its calibration), another class's filler is (it burns the node's spare CPU).
   */
  public static Map<String, Integer> neighbourPods(String sloClass, List<PodOnNode> onNode) {
    Map<String, Integer> pods = new TreeMap<>();
    for (PodOnNode p : onNode) {
      if (!p.sloClass().equals(sloClass) && !CalibrationObjects.CALIBRATION_ROLE.equals(p.role())) {
        pods.merge(p.sloClass(), 1, Integer::sum);
      }
    }
    return pods;
  }

  /** The neighbour classes whose pods on the node are IO-heavy. */
  public static List<String> ioNeighbours(String sloClass, List<PodOnNode> onNode) {
    List<String> io = new ArrayList<>();
    for (PodOnNode p : onNode) {
      if (p.ioHeavy()
          && !p.sloClass().equals(sloClass)
          && !CalibrationObjects.CALIBRATION_ROLE.equals(p.role())
          && !io.contains(p.sloClass())) {
        io.add(p.sloClass());
      }
    }
    return io;
  }

  /**
   * The context of every node where {@code sloClass}'s pool has a serving pod, by node name.
   *
   * @param byNode the pods of every class by node
   * @param nodeTypes the CPU model measured on a node (by any class's in-context calibration)
   */
  public static SortedMap<String, ContextKey> ofPool(
      String sloClass, Map<String, List<PodOnNode>> byNode, Map<String, String> nodeTypes) {
    SortedMap<String, ContextKey> out = new TreeMap<>();
    byNode.forEach(
        (node, pods) -> {
          if (pods.stream()
              .anyMatch(p -> p.pool() && p.role() == null && p.sloClass().equals(sloClass))) {
            out.put(
                node,
                new ContextKey(
                    nodeTypes.get(node),
                    List.copyOf(neighbourPods(sloClass, pods).keySet()),
                    ioNeighbours(sloClass, pods)));
          }
        });
    return out;
  }
}
