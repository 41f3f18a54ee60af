package dev.isolato.slo;

import java.util.List;

/**
 * The detected cut-off point with its evidence.
 *
 * @param status {@code found}: a confirmed violation follows the cut-off; {@code not-reached}: no
 *     confirmed violation, the cut-off is a lower bound; {@code none}: the lowest step already
 *     violates the SLO (no cut-off)
 * @param cutoffRps highest offered rate that met the SLO below the confirmed violation; null when
 *     {@code none}
 * @param cutoffStepIndex the step of {@code cutoffRps}; null when {@code none}
 * @param violationStepIndex the first step of the confirmed violation; null unless {@code found}
 * @param steps every step's verdict, by ascending offered rate
 * @param evidence human-readable lines that justify the result
 */
public record CutoffResult(
    String status,
    Double cutoffRps,
    Integer cutoffStepIndex,
    Integer violationStepIndex,
    double percentile,
    double targetLatencyMs,
    List<StepVerdict> steps,
    List<String> evidence) {

  public static final String FOUND = "found";
  public static final String NOT_REACHED = "not-reached";
  public static final String NONE = "none";

  public CutoffResult {
    steps = List.copyOf(steps);
    evidence = List.copyOf(evidence);
  }
}
