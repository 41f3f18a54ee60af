package dev.isolato.slo;

import java.util.OptionalInt;

/**
 * The latency model of one class, from the universal scalability law (USL) and Little's law:
 *
 * <pre>
 *   latency_ms(RR, λ) = s · (1 + α·(r − 1) + β·r·(r − 1))
 *   r = RR / C(λ),   C(λ) = λ / (1 + σ·(λ − 1))
 * </pre>
 *
 * RR is the class's total offered rate (rps), λ the replicas, r the effective load of one
 * replica (rps), s the latency scale (ms, the latency at 1 rps), α the contention and β the
 * coherency coefficient of a replica under load (per rps and per rps²), and σ the contention
 * between replicas: C(λ) is the USL capacity of λ replicas relative to one (σ = 0: replicas
 * scale linearly). See docs/slo-engine.md for why this form.
 *
 * @param scaleMs s, > 0
 * @param alpha α, ≥ 0
 * @param beta β, ≥ 0
 * @param sigma σ, in [0, 1)
 */
public record UslModel(double scaleMs, double alpha, double beta, double sigma) {

  public UslModel {
    if (!(scaleMs > 0) || !(alpha >= 0) || !(beta >= 0) || !(sigma >= 0 && sigma < 1)) {
      throw new IllegalArgumentException(String.format(
          "USL model needs s > 0, α >= 0, β >= 0, 0 <= σ < 1; got s=%s α=%s β=%s σ=%s", scaleMs, alpha, beta, sigma));
    }
  }

  /** C(λ): how many single replicas λ replicas are worth. */
  public double effectiveReplicas(int replicas) {
    requireReplicas(replicas);
    return replicas / (1 + sigma * (replicas - 1));
  }

  /** Predicted latency (ms, at the fitted percentile) for a total rate over {@code replicas}. */
  public double latencyMs(double totalRps, int replicas) {
    return latencyAtLoad(totalRps / effectiveReplicas(replicas));
  }

  /** Predicted latency for an effective per-replica load r. */
  public double latencyAtLoad(double perReplicaRps) {
    double r = perReplicaRps;
    return scaleMs * (1 + alpha * (r - 1) + beta * r * (r - 1));
  }

  /**
   * The per-replica load r* at which the predicted latency reaches {@code targetMs}: the
   * positive root of β·r² + (α − β)·r + (1 − α − target/s) = 0. Returns +∞ when the model is
   * flat (α = β = 0) and 0 when the target is below the model's latency at zero load.
   */
  public double perReplicaCutoffRps(double targetMs) {
    double c = 1 - alpha - targetMs / scaleMs;
    double r;
    if (beta == 0) {
      r = alpha == 0 ? Double.POSITIVE_INFINITY : -c / alpha;
    } else {
      double b = alpha - beta;
      double disc = b * b - 4 * beta * c;
      r = disc < 0 ? 0 : (-b + Math.sqrt(disc)) / (2 * beta);
    }
    return Math.max(0, r);
  }

  /** The predicted cut-off (total rps) of {@code replicas} for {@code targetMs}. */
  public double cutoffRps(double targetMs, int replicas) {
    return perReplicaCutoffRps(targetMs) * effectiveReplicas(replicas);
  }

  /**
   * The fewest replicas whose predicted cut-off for {@code targetMs} is at least
   * {@code totalRps}; empty when no replica count reaches it (C(λ) tends to 1/σ) or the
   * target is below the latency at zero load. Closed form: C(λ) ≥ k ⇔ λ ≥ k(1 − σ)/(1 − kσ).
   */
  public OptionalInt replicasFor(double totalRps, double targetMs) {
    double perReplica = perReplicaCutoffRps(targetMs);
    if (totalRps <= 0) {
      return OptionalInt.of(1);
    }
    if (!(perReplica > 0)) {
      return OptionalInt.empty();
    }
    double k = totalRps / perReplica;
    if (k * sigma >= 1) {
      return OptionalInt.empty();
    }
    double exact = k * (1 - sigma) / (1 - k * sigma);
    if (exact > Integer.MAX_VALUE - 1) {
      return OptionalInt.empty();
    }
    int replicas = Math.max(1, (int) Math.ceil(exact - 1e-9));
    // Guard the rounding of the closed form against the definition.
    while (cutoffRps(targetMs, replicas) < totalRps * (1 - 1e-12)) {
      replicas++;
    }
    return OptionalInt.of(replicas);
  }

  /** The formula with the fitted numbers, for explanations. */
  public String describe() {
    return Text.fmt(
        "latency = %.4g ms · (1 + %.4g·(r − 1) + %.4g·r·(r − 1)), r = RR·(1 + %.4g·(λ − 1))/λ",
        scaleMs, alpha, beta, sigma);
  }

  private static void requireReplicas(int replicas) {
    if (replicas < 1) {
      throw new IllegalArgumentException("replicas must be >= 1, was " + replicas);
    }
  }
}
