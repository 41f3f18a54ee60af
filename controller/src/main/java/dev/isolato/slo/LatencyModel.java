package dev.isolato.slo;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.OptionalInt;

/**
 * A fitted latency model of one class: the latency at the target percentile as a function of the
 * class's total offered rate RR and its replicas λ, through the effective load of one replica r =
 * RR / C(λ), C(λ) = (θ + (1 − θ)·λ) / (1 + σ·(λ − 1)), the capacity of λ replicas relative to one:
 * θ is what a random split of the arrivals costs (each replica beyond the first adds 1 − θ: its
 * share of an evenly spaced stream is burstier), σ the USL's contention between replicas (C then
 * tends to (1 − θ)/σ); θ = σ = 0: replicas scale linearly. The forms differ only in the per-replica
 * curve latency(r): {@link UslModel} (smooth, polynomial) and {@link QueueModel} (a knee at a
 * per-replica capacity). Planning uses only this interface. See docs/slo-engine.md. In JSON the
 * parameters carry the form as {@code "form"} (so a stored outcome reads back as its form).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "form")
@JsonSubTypes({
  @JsonSubTypes.Type(value = UslModel.class, name = UslModel.FORM),
  @JsonSubTypes.Type(value = QueueModel.class, name = QueueModel.FORM)
})
public sealed interface LatencyModel permits UslModel, QueueModel {

  /**
   * The form's name in the API and the class status: {@value UslModel#FORM} or {@value
   * QueueModel#FORM}.
   */
  String form();

  /** σ, the contention between replicas, in [0, 1). */
  double sigma();

  /** θ, the capacity a random split of the arrivals costs each added replica, in [0, 1). */
  double theta();

  /** Predicted latency (ms, at the fitted percentile) for an effective per-replica load r. */
  double latencyAtLoad(double perReplicaRps);

  /**
   * The per-replica load r* at which the predicted latency reaches {@code targetMs}; 0 when the
   * target is below the latency at zero load, +∞ when latency never reaches it.
   */
  double perReplicaCutoffRps(double targetMs);

  /** The per-replica load at which latency grows without bound; +∞ for a form without one. */
  default double saturationRps() {
    return Double.POSITIVE_INFINITY;
  }

  /** The formula with the fitted numbers, for explanations. */
  String describe();

  /** C(λ): how many single replicas λ replicas are worth. */
  default double effectiveReplicas(int replicas) {
    if (replicas < 1) {
      throw new IllegalArgumentException("replicas must be >= 1, was " + replicas);
    }
    return capacity(replicas, sigma(), theta());
  }

  /** C(λ) = (θ + (1 − θ)·λ) / (1 + σ·(λ − 1)): the one definition of the replicas' capacity law. */
  static double capacity(double replicas, double sigma, double theta) {
    return (theta + (1 - theta) * replicas) / (1 + sigma * (replicas - 1));
  }

  /** The capacity law with its numbers, for a model's description. */
  static String describeCapacity(double sigma, double theta) {
    return Text.fmt(
        "r = RR/C(λ), C(λ) = (%.4g + %.4g·λ)/(1 + %.4g·(λ − 1))", theta, 1 - theta, sigma);
  }

  /** Whether σ and θ are both in [0, 1), the domain of the capacity law. */
  static boolean validScaling(double sigma, double theta) {
    return sigma >= 0 && sigma < 1 && theta >= 0 && theta < 1;
  }

  /** Predicted latency (ms, at the fitted percentile) for a total rate over {@code replicas}. */
  default double latencyMs(double totalRps, int replicas) {
    return latencyAtLoad(totalRps / effectiveReplicas(replicas));
  }

  /** The predicted cut-off (total rps) of {@code replicas} for {@code targetMs}. */
  default double cutoffRps(double targetMs, int replicas) {
    return perReplicaCutoffRps(targetMs) * effectiveReplicas(replicas);
  }

  /**
   * The fewest replicas whose predicted cut-off for {@code targetMs} is at least {@code totalRps};
   * empty when no replica count reaches it (C(λ) tends to (1 − θ)/σ) or the target is below the
   * latency at zero load. Closed form: C(λ) ≥ k ⇔ λ ≥ (k(1 − σ) − θ)/(1 − θ − kσ).
   */
  default OptionalInt replicasFor(double totalRps, double targetMs) {
    double perReplica = perReplicaCutoffRps(targetMs);
    if (totalRps <= 0) {
      return OptionalInt.of(1);
    }
    if (!(perReplica > 0)) {
      return OptionalInt.empty();
    }
    double k = totalRps / perReplica;
    double sigma = sigma();
    double theta = theta();
    if (k * sigma >= 1 - theta) {
      return OptionalInt.empty();
    }
    double exact = (k * (1 - sigma) - theta) / (1 - theta - k * sigma);
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
}
