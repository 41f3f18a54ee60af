package dev.isolato.config;

import dev.isolato.scaling.Autoscaler;
import dev.isolato.scaling.DirectFloor;
import dev.isolato.tenancy.KedaSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code isolato.scaling.*} (docs/autoscaling.md).
 *
 * @param autoscaler {@code auto} (a KEDA ScaledObject when KEDA's API is served, else the CPU HPA),
 *     {@code keda} or {@code hpa}
 * @param keda how the ScaledObjects poll and react
 * @param direct the direct path: scrape the pool pods and raise replicas at once
 */
@ConfigurationProperties("isolato.scaling")
public record ScalingProperties(Autoscaler.Mode autoscaler, Keda keda, Direct direct) {
  public ScalingProperties {
    autoscaler = autoscaler == null ? Autoscaler.Mode.auto : autoscaler;
    keda = keda == null ? new Keda(null, 0, -1, 0, -1) : keda;
    direct = direct == null ? new Direct(true, null, null) : direct;
  }

  /** Defaults in docs/autoscaling.md: chosen from the reaction-time benchmark. */
  public record Keda(
      String prometheusUrl,
      int pollingSeconds,
      int cooldownSeconds,
      int rateWindowSeconds,
      int scaleDownStabilizationSeconds) {
    public Keda {
      prometheusUrl =
          prometheusUrl == null || prometheusUrl.isBlank()
              ? "http://127.0.0.1:9091"
              : prometheusUrl;
      pollingSeconds = pollingSeconds <= 0 ? 5 : pollingSeconds;
      cooldownSeconds = cooldownSeconds < 0 ? 300 : cooldownSeconds;
      rateWindowSeconds = rateWindowSeconds <= 0 ? 15 : rateWindowSeconds;
      scaleDownStabilizationSeconds =
          scaleDownStabilizationSeconds < 0 ? 120 : scaleDownStabilizationSeconds;
    }

    public KedaSettings settings() {
      return new KedaSettings(
          prometheusUrl,
          pollingSeconds,
          cooldownSeconds,
          rateWindowSeconds,
          scaleDownStabilizationSeconds);
    }
  }

  /**
   * The direct scaling path: pool pods scraped, replicas raised without an autoscaler.
   *
   * @param interval how often the pool pods are scraped; at most 1 s (the issue's ≥ 1 Hz)
   * @param hold how long a raise stays the autoscaler's minimum (DirectFloor): KEDA's scale-down
   *     window by default, at most DirectFloor.MAX_HOLD
   */
  public record Direct(boolean enabled, Duration interval, Duration hold) {
    public Direct {
      interval = interval == null ? Duration.ofSeconds(1) : interval;
      hold =
          DirectFloor.requireHold(
              hold == null ? Duration.ofMinutes(2) : hold, "isolato.scaling.direct.hold");
      if (interval.isNegative()
          || interval.isZero()
          || interval.compareTo(Duration.ofSeconds(1)) > 0) {
        throw new IllegalArgumentException(
            "isolato.scaling.direct.interval must be > 0 and <= 1s, not " + interval);
      }
    }
  }
}
