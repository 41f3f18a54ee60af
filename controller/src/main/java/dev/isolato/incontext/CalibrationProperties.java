package dev.isolato.incontext;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * In-context calibrations (issue 34 item 1; {@code isolato.calibration.*}).
 *
 * @param generatorImage the open-loop referee's image ({@code make openloop-image})
 * @param budget the planned duration of a ramp's steps (the Job's bound adds slack)
 * @param auto whether the controller starts calibrations itself (no calibration, pod size changed,
 *     drift); off by default: a calibration loads the class's node
 * @param interval how often the loop advances calibrations
 * @param retryAfter no automatic start within this of the last one
 * @param readyTimeout how long the replica may take to be ready
 * @param contextSettle how long a new context of a pool (a neighbour class came or left, the pool
 *     moved) must hold before it counts: a neighbour replica that comes and goes within it changes
 *     nothing (no Event, no recalibration due)
 */
@ConfigurationProperties("isolato.calibration")
public record CalibrationProperties(
    String generatorImage,
    Duration budget,
    boolean auto,
    Duration interval,
    Duration retryAfter,
    Duration readyTimeout,
    Duration contextSettle) {
  public static final String DEFAULT_IMAGE = "localhost/isolato/openloop:dev";

  public CalibrationProperties {
    generatorImage =
        generatorImage == null || generatorImage.isBlank() ? DEFAULT_IMAGE : generatorImage;
    budget = budget == null ? Duration.ofSeconds(60) : budget;
    interval = interval == null ? Duration.ofSeconds(2) : interval;
    retryAfter = retryAfter == null ? Duration.ofMinutes(15) : retryAfter;
    readyTimeout = readyTimeout == null ? Duration.ofSeconds(120) : readyTimeout;
    contextSettle = contextSettle == null ? Duration.ofSeconds(30) : contextSettle;
    if (contextSettle.isNegative()) {
      throw new IllegalArgumentException(
          "isolato.calibration.context-settle must not be negative: " + contextSettle);
    }
  }
}
