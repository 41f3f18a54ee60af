package dev.isolato.api;

/** Admission arithmetic of a class pool (pure): how much committed rate is still free. */
public final class Capacity {
  private Capacity() {}

  /** Largest committed rate the pool can serve: every allowed pod at its cut-off point. */
  public static double ceilingRps(int maxReplicas, double perPodCutoffRps) {
    return maxReplicas * perPodCutoffRps;
  }

  public static double remainingRps(double ceilingRps, double committedByOthers) {
    return Math.max(0, ceilingRps - committedByOthers);
  }
}
