package dev.isolato.incontext;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * When the controller starts an in-context calibration by itself (issue 34 item 1): a class with no
 * measured cut-off, a class whose pod size differs from the one its last in-context calibration
 * measured, a class whose verification loop reports drift that began after the last calibration,
 * and a class whose pool came to run, after the last attempt, in a context no figure was measured
 * in (issue 34 item 4). Never while one runs, never before the pool has a ready pod (the
 * calibration replica copies its template), and not again within {@code retryAfter} of the last
 * attempt (a failing calibration must not loop).
 *
 * @param measured whether the class has a measured per-pod cut-off
 * @param poolReady whether the class's pool has a ready pod
 * @param running whether a calibration of the class runs now
 * @param lastAttemptAt when the last in-context calibration started; null: never
 * @param lastPodCpuMillis the pod CPU the last successful in-context calibration measured
 * @param podCpuMillis the class's pod CPU now
 * @param driftSince since when live evidence holds the cut-off lower; null: no drift
 * @param contextChange why no figure holds where the pool runs now (a new neighbour class, another
 *     node type); null: one does
 * @param contextSince since when the pool runs in that context
 */
public record AutoStart(
    boolean measured,
    boolean poolReady,
    boolean running,
    Instant lastAttemptAt,
    Long lastPodCpuMillis,
    long podCpuMillis,
    Instant driftSince,
    String contextChange,
    Instant contextSince) {

  /** Why a calibration should start now, or empty. */
  public Optional<String> reason(Instant now, Duration retryAfter) {
    if (running || !poolReady) {
      return Optional.empty();
    }
    if (lastAttemptAt != null && now.isBefore(lastAttemptAt.plus(retryAfter))) {
      return Optional.empty();
    }
    if (!measured) {
      return Optional.of("the class has no calibration");
    }
    if (lastPodCpuMillis != null && !Objects.equals(lastPodCpuMillis, podCpuMillis)) {
      return Optional.of(
          "pod size changed from " + lastPodCpuMillis + "m to " + podCpuMillis + "m");
    }
    if (driftSince != null && (lastAttemptAt == null || driftSince.isAfter(lastAttemptAt))) {
      return Optional.of("live capacity below the calibrated figure since " + driftSince);
    }
    if (contextChange != null
        && (lastAttemptAt == null || contextSince == null || contextSince.isAfter(lastAttemptAt))) {
      return Optional.of("context changed: " + contextChange);
    }
    return Optional.empty();
  }
}
