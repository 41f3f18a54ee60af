package dev.isolato.tenancy;

/**
 * How Isolato's ScaledObjects poll and react (docs/autoscaling.md explains each choice).
 *
 * @param prometheusUrl the Prometheus KEDA's operator queries (it must scrape the pool pods with a
 *     {@code namespace} label)
 * @param pollingSeconds KEDA's pollingInterval
 * @param cooldownSeconds KEDA's cooldownPeriod (only used when scaling to zero, which Isolato never
 *     does: minReplicaCount is the plan)
 * @param rateWindowSeconds the PromQL rate() window of both triggers; at least two scrapes
 * @param scaleDownStabilizationSeconds how long the HPA keeps a higher recommendation before
 *     scaling down
 */
public record KedaSettings(
    String prometheusUrl,
    int pollingSeconds,
    int cooldownSeconds,
    int rateWindowSeconds,
    int scaleDownStabilizationSeconds) {
  public KedaSettings {
    if (prometheusUrl == null || !prometheusUrl.matches("https?://[^\\s]+")) {
      throw new IllegalArgumentException(
          "isolato.scaling.keda.prometheus-url must be an http(s) URL, not '"
              + prometheusUrl
              + "'");
    }
    if (pollingSeconds < 1
        || cooldownSeconds < 0
        || rateWindowSeconds < 2
        || scaleDownStabilizationSeconds < 0) {
      throw new IllegalArgumentException(
          "isolato.scaling.keda: polling-seconds >= 1, cooldown-seconds >= 0, "
              + "rate-window-seconds >= 2 and scale-down-stabilization-seconds >= 0 are required");
    }
  }
}
