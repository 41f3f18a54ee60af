package dev.isolato.verification;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code isolato.verification.*} (docs/operations.md). The loop runs when {@code
 * isolato.profiler.prometheus-url} names a Prometheus and {@code enabled} is true.
 *
 * @param interval time between passes (one window each)
 * @param window the rate and latency of a pass are measured over it (at least two scrapes)
 */
@ConfigurationProperties("isolato.verification")
public record VerificationProperties(Boolean enabled, Duration interval, Duration window) {
  public VerificationProperties {
    enabled = enabled == null || enabled;
    interval = interval == null ? Duration.ofSeconds(5) : interval;
    window = window == null ? Duration.ofSeconds(15) : window;
    if (interval.isNegative() || interval.isZero() || window.toSeconds() < 1) {
      throw new IllegalArgumentException(
          "isolato.verification.interval must be positive and window at least 1 s");
    }
  }
}
