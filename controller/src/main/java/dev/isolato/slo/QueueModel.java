package dev.isolato.slo;

/**
 * The queueing form of the latency model (M/M/1-shaped per replica), for workloads whose latency is
 * flat and then jumps at a hard per-replica capacity, e.g. a CPU quota (CFS):
 *
 * <pre>
 *   latency_ms(RR, λ) = s + k · ρ / (1 − ρ),   ρ = r / μ,   latency = +∞ when ρ ≥ 1
 *   r = RR / C(λ),   C(λ) = (θ + (1 − θ)·λ) / (1 + σ·(λ − 1))
 * </pre>
 *
 * s is the latency without queueing (ms), k the queueing scale (ms; for an M/M/1 queue the mean
 * service time, here a free parameter because the model predicts a percentile), μ the saturation
 * rate of one replica (rps), σ and θ the replicas' capacity law as in {@link LatencyModel}. See
 * docs/slo-engine.md for why this form.
 *
 * @param scaleMs s, > 0
 * @param queueMs k, ≥ 0
 * @param capacityRps μ, > 0
 * @param sigma σ, in [0, 1)
 * @param theta θ, in [0, 1)
 */
public record QueueModel(
    double scaleMs, double queueMs, double capacityRps, double sigma, double theta)
    implements LatencyModel {
  public static final String FORM = "queue";

  public QueueModel {
    if (!(scaleMs > 0)
        || !(queueMs >= 0)
        || !(capacityRps > 0)
        || Double.isInfinite(capacityRps)
        || !LatencyModel.validScaling(sigma, theta)) {
      throw new IllegalArgumentException(
          String.format(
              "queue model needs s > 0, k >= 0, finite μ > 0, 0 <= σ < 1, 0 <= θ < 1; got s=%s k=%s μ=%s σ=%s θ=%s",
              scaleMs, queueMs, capacityRps, sigma, theta));
    }
  }

  /** A model whose replicas lose nothing to the split of the arrivals (θ = 0). */
  public QueueModel(double scaleMs, double queueMs, double capacityRps, double sigma) {
    this(scaleMs, queueMs, capacityRps, sigma, 0);
  }

  @Override
  public String form() {
    return FORM;
  }

  @Override
  public double latencyAtLoad(double perReplicaRps) {
    double rho = Math.max(0, perReplicaRps) / capacityRps;
    return rho >= 1 ? Double.POSITIVE_INFINITY : scaleMs + queueMs * rho / (1 - rho);
  }

  /**
   * The per-replica load r* at which the predicted latency reaches {@code targetMs}: with z =
   * (target − s)/k, ρ/(1 − ρ) = z ⇔ r* = μ·z/(1 + z). Returns 0 when the target is below s and μ
   * when k = 0 (flat up to the capacity).
   */
  @Override
  public double perReplicaCutoffRps(double targetMs) {
    if (!(targetMs > scaleMs)) {
      return 0;
    }
    if (queueMs == 0) {
      return capacityRps;
    }
    double z = (targetMs - scaleMs) / queueMs;
    return capacityRps * z / (1 + z);
  }

  @Override
  public double saturationRps() {
    return capacityRps;
  }

  @Override
  public String describe() {
    return Text.fmt(
        "latency = %.4g ms + %.4g ms · ρ/(1 − ρ), ρ = r/%.4g rps (∞ at ρ ≥ 1), %s",
        scaleMs, queueMs, capacityRps, LatencyModel.describeCapacity(sigma, theta));
  }
}
