package dev.isolato.incontext;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The context a per-pod cut-off holds for (issue 34 item 4): the node type — the CPU model the
 * generator read on the node, since what a saas-bench CPU unit costs follows the CPU's speed — the
 * other classes whose serving pods share the node, and which of them are IO-heavy (Kubernetes does
 * not isolate disk IO). Load and utilisation are not part of it: they move all the time, and the
 * verification loop watches their effect live.
 *
 * <p>Stored as the cut-off's context label, {@code in-context:<cpu>[+<neighbours>][;io=<io
 * neighbours>]}; a label of another form (a run posted from another machine or a quiet, pinned
 * node: {@code alone}, {@code homogeneous}, …) is no key and matches no node.
 *
 * @param nodeType the CPU model; null when unknown, and an unknown node type matches nothing
 * @param neighbours the neighbour classes, sorted
 * @param ioNeighbours the IO-heavy ones among them, sorted
 */
public record ContextKey(String nodeType, List<String> neighbours, List<String> ioNeighbours) {
  static final String PREFIX = "in-context:";
  private static final String UNKNOWN_CPU = "cpu?";
  private static final String IO = ";io=";

  public ContextKey {
    nodeType = nodeType == null || nodeType.isBlank() ? null : nodeType.trim();
    neighbours = sorted(neighbours);
    ioNeighbours = sorted(ioNeighbours);
  }

  /** The label the cut-off is stored under. */
  public String label() {
    return PREFIX
        + (nodeType == null ? UNKNOWN_CPU : nodeType)
        + (neighbours.isEmpty() ? "" : "+" + String.join(",", neighbours))
        + (ioNeighbours.isEmpty() ? "" : IO + String.join(",", ioNeighbours));
  }

  /** The key of an in-context label; empty for any other label. */
  public static Optional<ContextKey> parse(String label) {
    if (label == null || !label.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String rest = label.substring(PREFIX.length());
    List<String> io = List.of();
    int ioAt = rest.indexOf(IO);
    if (ioAt >= 0) {
      io = split(rest.substring(ioAt + IO.length()));
      rest = rest.substring(0, ioAt);
    }
    // class names are DNS labels: the last '+' separates them from the CPU model
    int plus = rest.lastIndexOf('+');
    String cpu = plus < 0 ? rest : rest.substring(0, plus);
    List<String> neighbours = plus < 0 ? List.of() : split(rest.substring(plus + 1));
    return Optional.of(new ContextKey(UNKNOWN_CPU.equals(cpu) ? null : cpu, neighbours, io));
  }

  /**
   * Whether a cut-off measured in {@code other} holds here: known and equal node type, same sets.
   */
  public boolean matches(ContextKey other) {
    return other != null
        && nodeType != null
        && nodeType.equals(other.nodeType)
        && neighbours.equals(other.neighbours)
        && ioNeighbours.equals(other.ioNeighbours);
  }

  /** What changed from {@code before} to this key, in words; empty when nothing did. */
  public List<String> changesFrom(ContextKey before) {
    List<String> out = new ArrayList<>();
    if (!Objects.equals(nodeType, before.nodeType)) {
      out.add(
          "node type "
              + Objects.requireNonNullElse(before.nodeType, "unknown")
              + " → "
              + Objects.requireNonNullElse(nodeType, "unknown (never calibrated on this node)"));
    }
    difference(neighbours, before.neighbours)
        .forEach(n -> out.add("neighbour class " + n + " came"));
    difference(before.neighbours, neighbours)
        .forEach(n -> out.add("neighbour class " + n + " left"));
    difference(ioNeighbours, before.ioNeighbours)
        .forEach(n -> out.add("neighbour class " + n + " is IO-heavy"));
    return out;
  }

  private static List<String> difference(List<String> a, List<String> b) {
    return a.stream().filter(x -> !b.contains(x)).toList();
  }

  private static List<String> split(String s) {
    return s.isEmpty() ? List.of() : List.of(s.split(","));
  }

  private static List<String> sorted(Collection<String> c) {
    return c == null ? List.of() : List.copyOf(new TreeSet<>(c));
  }
}
