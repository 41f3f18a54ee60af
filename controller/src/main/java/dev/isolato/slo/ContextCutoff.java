package dev.isolato.slo;

import java.util.List;

/**
 * A class's cut-off measured in one context.
 *
 * @param label the context's label ("alone", "homogeneous", "mix-4:1", …)
 * @param cutoffRps the cut-off measured there
 * @param colocatedClasses classes whose pods shared the node(s) in that context
 */
public record ContextCutoff(String label, double cutoffRps, List<String> colocatedClasses) {
  public ContextCutoff {
    colocatedClasses = colocatedClasses == null ? List.of() : List.copyOf(colocatedClasses);
  }
}
