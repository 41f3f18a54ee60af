package dev.isolato.slo;

/**
 * The latency model of one class, from the universal scalability law (USL) and Little's law:
 *
 * <pre>
 *   latency_ms(RR, λ) = s · (1 + α·(r − 1) + β·r·(r − 1))
 *   r = RR / C(λ),   C(λ) = (θ + (1 − θ)·λ) / (1 + σ·(λ − 1))
 * </pre>
 *
 * RR is the class's total offered rate (rps), λ the replicas, r the effective load of one replica
 * (rps), s the latency scale (ms, the latency at 1 rps), α the contention and β the coherency
 * coefficient of a replica under load (per rps and per rps²), and C(λ) the capacity of λ replicas
 * relative to one, with σ the contention between replicas and θ the cost of a random split of the
 * arrivals ({@link LatencyModel}; σ = θ = 0: replicas scale linearly). See docs/slo-engine.md for
 * why this form; planning goes through {@link LatencyModel}.
 *
 * @param scaleMs s, > 0
 * @param alpha α, ≥ 0
 * @param beta β, ≥ 0
 * @param sigma σ, in [0, 1)
 * @param theta θ, in [0, 1)
 */
public record UslModel(double scaleMs, double alpha, double beta, double sigma, double theta)
    implements LatencyModel {
  public static final String FORM = "usl";

  public UslModel {
    if (!(scaleMs > 0)
        || !(alpha >= 0)
        || !(beta >= 0)
        || !LatencyModel.validScaling(sigma, theta)) {
      throw new IllegalArgumentException(
          String.format(
              "USL model needs s > 0, α >= 0, β >= 0, 0 <= σ < 1, 0 <= θ < 1; got s=%s α=%s β=%s σ=%s θ=%s",
              scaleMs, alpha, beta, sigma, theta));
    }
  }

  /** A model whose replicas lose nothing to the split of the arrivals (θ = 0). */
  public UslModel(double scaleMs, double alpha, double beta, double sigma) {
    this(scaleMs, alpha, beta, sigma, 0);
  }

  @Override
  public String form() {
    return FORM;
  }

  @Override
  public double latencyAtLoad(double perReplicaRps) {
    double r = perReplicaRps;
    return scaleMs * (1 + alpha * (r - 1) + beta * r * (r - 1));
  }

  /**
   * The per-replica load r* at which the predicted latency reaches {@code targetMs}: the positive
   * root of β·r² + (α − β)·r + (1 − α − target/s) = 0. Returns +∞ when the model is flat (α = β =
   * 0) and 0 when the target is below the model's latency at zero load.
   */
  @Override
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

  @Override
  public String describe() {
    return Text.fmt(
        "latency = %.4g ms · (1 + %.4g·(r − 1) + %.4g·r·(r − 1)), %s",
        scaleMs, alpha, beta, LatencyModel.describeCapacity(sigma, theta));
  }
}
