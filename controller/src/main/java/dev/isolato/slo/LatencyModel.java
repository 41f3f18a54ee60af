package dev.isolato.slo;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.OptionalInt;

/**
 * A fitted latency model of one class: the latency at the target percentile as a function of the
 * class's total offered rate RR and its replicas λ, through the effective load of one replica r =
 * RR / C(λ), C(λ) = λ / (1 + σ·(λ − 1)) (the USL capacity of λ replicas relative to one; σ = 0:
 * replicas scale linearly). The forms differ only in the per-replica curve latency(r): {@link
 * UslModel} (smooth, polynomial) and {@link QueueModel} (a knee at a per-replica capacity).
 * Planning uses only this interface. See docs/slo-engine.md. In JSON the parameters carry the form
 * as {@code "form"} (so a stored outcome reads back as its form).
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
    return replicas / (1 + sigma() * (replicas - 1));
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
   * empty when no replica count reaches it (C(λ) tends to 1/σ) or the target is below the latency
   * at zero load. Closed form: C(λ) ≥ k ⇔ λ ≥ k(1 − σ)/(1 − kσ).
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
}
