package dev.isolato.slo;

import static dev.isolato.slo.Text.fmt;

import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The USL's capacity law applied to measured cut-offs: the cut-off of λ replicas is c(λ) = c₁·C(λ),
 * C(λ) = λ / (1 + σ(λ − 1)), with c₁ the cut-off of one replica. σ and c₁ are the least-squares
 * solution of the linear system c₁ − σ·x_λ(λ − 1) = x_λ over the measured counts, x_λ = c(λ)/λ
 * (exact for two counts).
 *
 * <p>Why cut-offs and not the latency steps: how latency rises towards a cut-off depends on the
 * replica count (with more pods each gets a burstier share of the arrivals: a random split of the
 * stream), so one per-replica latency curve scaled along the rate axis fits the steps of several
 * counts badly, and a σ fitted to those steps is skewed by the shape; the cut-off, the unit of
 * capacity, is what a plan needs.
 *
 * @param singleReplicaRps c₁
 * @param sigma σ, clamped to [0, {@link ModelFitter#MAX_SIGMA}]
 * @param cutoffs the measured cut-off (total rps) by replica count
 */
public record CutoffScaling(
    double singleReplicaRps, double sigma, SortedMap<Integer, Double> cutoffs) {

  /** The scaling of at least two replica counts' cut-offs; empty with fewer. */
  public static Optional<CutoffScaling> of(Map<Integer, Double> measured) {
    SortedMap<Integer, Double> cutoffs = new TreeMap<>(measured);
    if (cutoffs.size() < 2 || cutoffs.values().stream().anyMatch(c -> !(c > 0))) {
      return Optional.empty();
    }
    double[][] design = new double[cutoffs.size()][];
    double[] rhs = new double[cutoffs.size()];
    int i = 0;
    for (var e : cutoffs.entrySet()) {
      double x = e.getValue() / e.getKey();
      design[i] = new double[] {1, -x * (e.getKey() - 1)};
      rhs[i++] = x;
    }
    double[] solution = ModelFitter.linearLeastSquares(design, rhs);
    double sigma = Math.min(ModelFitter.MAX_SIGMA, Math.max(0, solution[1]));
    if (sigma == solution[1]) {
      return Optional.of(new CutoffScaling(solution[0], sigma, cutoffs));
    }
    // σ clamped: c₁ is then the mean single-replica cut-off the counts imply
    double single =
        cutoffs.entrySet().stream()
            .mapToDouble(e -> e.getValue() / e.getKey() * (1 + sigma * (e.getKey() - 1)))
            .average()
            .orElseThrow();
    return Optional.of(new CutoffScaling(single, sigma, cutoffs));
  }

  /** The cut-off this law predicts for {@code replicas}. */
  public double predictedRps(int replicas) {
    return singleReplicaRps * replicas / (1 + sigma * (replicas - 1));
  }

  /** What was measured and derived, for the fit's notes. */
  public String describe() {
    return fmt(
        "σ %.3f from the measured cut-offs (%s): c(λ) = %.1f·λ/(1 + σ(λ − 1))",
        sigma,
        cutoffs.entrySet().stream()
            .map(e -> fmt("%d replicas %.1f rps", e.getKey(), e.getValue()))
            .collect(Collectors.joining(", ")),
        singleReplicaRps);
  }
}
