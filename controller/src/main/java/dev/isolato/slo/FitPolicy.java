package dev.isolato.slo;

/**
 * When a fitted model is trusted.
 *
 * @param minPoints fewest healthy steps to fit on (at least parameters + 2)
 * @param minRSquared lowest accepted coefficient of determination
 * @param maxAlpha α at or above this (per rps) is implausibly steep: refused
 * @param maxBeta β at or above this (per rps²) is implausibly steep: refused
 * @param assumedSigma σ used when the steps cover a single replica count (σ not identifiable)
 */
public record FitPolicy(
    int minPoints, double minRSquared, double maxAlpha, double maxBeta, double assumedSigma) {

  public static FitPolicy defaults() {
    return new FitPolicy(5, 0.90, 1.0, 1.0, 0.0);
  }

  public FitPolicy {
    if (minPoints < 4) {
      throw new IllegalArgumentException(
          "minPoints must be >= 4 (3 parameters + 1), was " + minPoints);
    }
    if (!(minRSquared >= 0 && minRSquared <= 1)) {
      throw new IllegalArgumentException("minRSquared must be in [0, 1], was " + minRSquared);
    }
    if (!(maxAlpha > 0) || !(maxBeta > 0)) {
      throw new IllegalArgumentException("maxAlpha and maxBeta must be > 0");
    }
    if (!(assumedSigma >= 0 && assumedSigma < 1)) {
      throw new IllegalArgumentException("assumedSigma must be in [0, 1), was " + assumedSigma);
    }
  }
}
