package dev.isolato.incontext;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where an in-context calibration measured (issue 34 items 1 and 4): the node, its CPU, the other
 * classes whose pods shared the node and their load, and how busy the node was. A cut-off holds for
 * the site it was measured at; {@link #sameContext} says whether another site is that context.
 *
 * @param node the node the calibration replica ran on
 * @param cpuModel the node's CPU model (/proc/cpuinfo "model name"); null when unknown
 * @param cpuMhz the node's CPU clock during the run (MHz, mean over cores); null when unknown
 * @param neighbourPods other classes' pods on the node, by class
 * @param neighbourRps those classes' request rate on the node (req/s, their latest live window)
 * @param nodeBusyPct the node's CPU busy during the run, % of all its CPUs (generator included)
 * @param ioNeighbours the neighbour classes whose pods there are IO-heavy
 */
public record Site(
    String node,
    String cpuModel,
    Double cpuMhz,
    Map<String, Integer> neighbourPods,
    Map<String, Double> neighbourRps,
    Double nodeBusyPct,
    List<String> ioNeighbours) {
  public Site {
    Objects.requireNonNull(node, "node");
    neighbourPods = Map.copyOf(neighbourPods == null ? Map.of() : neighbourPods);
    neighbourRps = Map.copyOf(neighbourRps == null ? Map.of() : neighbourRps);
    ioNeighbours = ioNeighbours == null ? List.of() : List.copyOf(ioNeighbours);
  }

  /** The context the site is: its CPU model, neighbour classes and IO-heavy neighbours. */
  public ContextKey key() {
    return new ContextKey(cpuModel, List.copyOf(neighbourPods.keySet()), ioNeighbours);
  }

  /**
   * The context label the run is stored under ({@link ContextKey#label}): the CPU model and the
   * neighbour classes, not the node name (nodes of one kind with the same neighbours are one
   * context), e.g. {@code in-context:Intel Xeon 8375C+bronze,silver}.
   */
  public String label() {
    return key().label();
  }

  /**
   * Whether a cut-off measured at {@code other} applies here ({@link ContextKey#matches}). Load and
   * utilisation are recorded, not matched.
   */
  public boolean sameContext(Site other) {
    return other != null && key().matches(other.key());
  }
}
