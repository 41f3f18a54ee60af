package dev.isolato.slo;

import static dev.isolato.slo.Text.fmt;

import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The replicas' capacity law ({@link LatencyModel#capacity}) applied to measured cut-offs: c(λ) =
 * c₁·(θ + (1 − θ)λ)/(1 + σ(λ − 1)). Rewritten as c(λ) = a + bλ − σ·c(λ)(λ − 1), with a = c₁θ and b
 * = c₁(1 − θ), it is linear in (a, b, σ): least squares over the measured counts, exact for three.
 * Two counts determine a line (σ = 0): each replica beyond the first adds b.
 *
 * <p>Why θ before σ: a Service splits the arrivals over the pods at random, so each pod of λ gets a
 * randomly thinned share of the stream, whose gaps' squared coefficient of variation is 1 − 1/λ for
 * an evenly spaced stream; a pod's cut-off falls about linearly in it (1 − 1/λ is 0, 1/2, 2/3, 3/4
 * for 1 to 4 pods), which makes the total cut-off linear in λ beyond the first pod. Measured on
 * 100m pods (docs/results/README.md): 40 / 72 / 102 / 140 rps at 1 to 4 pods, where the line
 * through 1 and 2 predicts 104 and 136, and σ alone (Amdahl) 98 and 120. σ, the USL's contention
 * between replicas (a shared core, a lock), bends the line down and needs a third count.
 *
 * <p>Why cut-offs and not the latency steps: how latency rises towards a cut-off depends on the
 * replica count (the burstier share), so one per-replica latency curve scaled along the rate axis
 * fits the steps of several counts badly, and a law fitted to those steps is skewed by the shape;
 * the cut-off, the unit of capacity, is what a plan needs.
 *
 * @param singleReplicaRps c₁
 * @param sigma σ, in [0, {@link ModelFitter#MAX_SIGMA}]
 * @param theta θ, in [0, {@link ModelFitter#MAX_SIGMA}]
 * @param cutoffs the measured cut-off (total rps) by replica count
 */
public record CutoffScaling(
    double singleReplicaRps, double sigma, double theta, SortedMap<Integer, Double> cutoffs) {

  /** The scaling of at least two replica counts' cut-offs; empty with fewer. */
  public static Optional<CutoffScaling> of(Map<Integer, Double> measured) {
    SortedMap<Integer, Double> cutoffs = new TreeMap<>(measured);
    if (cutoffs.size() < 2 || cutoffs.values().stream().anyMatch(c -> !(c > 0))) {
      return Optional.empty();
    }
    if (cutoffs.size() >= 3) {
      double[] abs = solve(cutoffs, true);
      if (abs[2] >= 0 && abs[2] <= ModelFitter.MAX_SIGMA) {
        Optional<CutoffScaling> law = split(abs[0], abs[1], abs[2], cutoffs);
        if (law.isPresent()) {
          return law;
        }
      }
    }
    double[] ab = solve(cutoffs, false);
    return split(ab[0], ab[1], 0, cutoffs).or(() -> Optional.of(contention(cutoffs)));
  }

  /** Least squares of c(λ) = a + bλ [− σ·c(λ)(λ − 1)]: (a, b[, σ]). */
  private static double[] solve(SortedMap<Integer, Double> cutoffs, boolean withSigma) {
    double[][] design = new double[cutoffs.size()][];
    double[] rhs = new double[cutoffs.size()];
    int i = 0;
    for (var e : cutoffs.entrySet()) {
      int lambda = e.getKey();
      double c = e.getValue();
      design[i] =
          withSigma ? new double[] {1, lambda, -c * (lambda - 1)} : new double[] {1, lambda};
      rhs[i++] = c;
    }
    return ModelFitter.linearLeastSquares(design, rhs);
  }

  /** The law with θ = a/(a + b), when a ≥ 0 and b > 0 put θ in its domain. */
  private static Optional<CutoffScaling> split(
      double a, double b, double sigma, SortedMap<Integer, Double> cutoffs) {
    double theta = a / (a + b);
    return a >= 0 && b > 0 && theta <= ModelFitter.MAX_SIGMA
        ? Optional.of(new CutoffScaling(a + b, sigma, theta, cutoffs))
        : Optional.empty();
  }

  /**
   * θ = 0 and σ alone (Amdahl), when the cut-offs grow faster than a line from the first (noise: σ
   * then clamps to 0, linear) or barely at all (σ clamps to its maximum, which the fit refuses): c₁
   * − σ·x_λ(λ − 1) = x_λ with x_λ = c(λ)/λ.
   */
  private static CutoffScaling contention(SortedMap<Integer, Double> cutoffs) {
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
      return new CutoffScaling(solution[0], sigma, 0, cutoffs);
    }
    // σ clamped: c₁ is then the mean single-replica cut-off the counts imply
    ToDoubleFunction<Map.Entry<Integer, Double>> single =
        e -> e.getValue() / LatencyModel.capacity(e.getKey(), sigma, 0);
    return new CutoffScaling(
        cutoffs.entrySet().stream().mapToDouble(single).average().orElseThrow(), sigma, 0, cutoffs);
  }

  /** The cut-off this law predicts for {@code replicas}. */
  public double predictedRps(int replicas) {
    return singleReplicaRps * LatencyModel.capacity(replicas, sigma, theta);
  }

  /** What was measured and derived, for the fit's notes. */
  public String describe() {
    return fmt(
        "θ %.3f, σ %.3f from the measured cut-offs (%s): c(λ) = %.1f·(%.3f + %.3f·λ)/(1 + %.3f·(λ − 1))",
        theta,
        sigma,
        cutoffs.entrySet().stream()
            .map(e -> fmt("%d replicas %.1f rps", e.getKey(), e.getValue()))
            .collect(Collectors.joining(", ")),
        singleReplicaRps,
        theta,
        1 - theta,
        sigma);
  }
}
