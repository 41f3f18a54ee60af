package dev.isolato.slo;

import java.util.List;

/**
 * How stable a class's cut-off is across the contexts it was measured in.
 *
 * @param spreadPct (max − min cut-off) / baseline × 100
 * @param stable no context is unstable or IO-unsafe
 */
public record StabilityReport(
    String sloClass,
    String baselineLabel,
    double baselineRps,
    double minRps,
    double maxRps,
    double spreadPct,
    boolean stable,
    List<ContextStability> contexts) {
  public StabilityReport {
    contexts = List.copyOf(contexts);
  }
}
