package dev.isolato.scaling;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Pure: a direct-path raise held as the autoscaler's floor for a while. An HPA (KEDA's or the CPU
 * one) does not know why a Deployment has more pods than its metric asks for: at its next sync it
 * scales back to its own recommendation, which lags the direct path's reading by the Prometheus
 * scrape and rate window (on 2026-11-28 a raise was undone 0.8 s after it). So the direct path
 * writes the raise on the Deployment as two annotations, and while they hold, the pool's autoscaler
 * gets it as its minimum; after {@code until} the autoscaler's own stabilisation decides again.
 *
 * <p>The annotations are read from a Deployment that anyone with edit rights on the pool namespace
 * could write, so a floor never exceeds the class maximum and is not honoured beyond {@link
 * #MAX_HOLD} from now.
 */
public record DirectFloor(int replicas, Instant until) {
  public static final String REPLICAS = "isolato.dev/direct-floor";
  public static final String UNTIL = "isolato.dev/direct-floor-until";

  /** The longest hold a floor may ask for: a forged far-future {@code until} is ignored. */
  public static final Duration MAX_HOLD = Duration.ofMinutes(10);

  public DirectFloor {
    if (replicas < 1) {
      throw new IllegalArgumentException("a direct floor holds at least one replica");
    }
  }

  /** A floor of {@code replicas} from {@code now} for {@code hold} (at most {@link #MAX_HOLD}). */
  public static DirectFloor of(int replicas, Instant now, Duration hold) {
    return new DirectFloor(replicas, now.plus(requireHold(hold, "a direct floor's hold")));
  }

  /** {@code hold}, refused (naming {@code what}) unless between 0 and {@link #MAX_HOLD}. */
  public static Duration requireHold(Duration hold, String what) {
    if (hold.isNegative() || hold.compareTo(MAX_HOLD) > 0) {
      throw new IllegalArgumentException(
          what + " must be between 0 and " + MAX_HOLD + ", not " + hold);
    }
    return hold;
  }

  /** The floor a Deployment's annotations hold; none when absent or malformed. */
  public static Optional<DirectFloor> read(Map<String, String> annotations) {
    if (annotations == null
        || annotations.get(REPLICAS) == null
        || annotations.get(UNTIL) == null) {
      return Optional.empty();
    }
    try {
      int replicas = Integer.parseInt(annotations.get(REPLICAS).trim());
      Instant until = Instant.parse(annotations.get(UNTIL).trim());
      return replicas < 1 ? Optional.empty() : Optional.of(new DirectFloor(replicas, until));
    } catch (NumberFormatException | DateTimeException e) {
      return Optional.empty();
    }
  }

  public Map<String, String> annotations() {
    return Map.of(REPLICAS, Integer.toString(replicas), UNTIL, until.toString());
  }

  /** Whether it holds at {@code now}: not yet expired, and not further ahead than allowed. */
  public boolean holdsAt(Instant now) {
    return now.isBefore(until) && !until.isAfter(now.plus(MAX_HOLD));
  }

  /**
   * The autoscaler's minimum: the plan's replicas, raised to the floor while it holds, never above
   * the class maximum (nor below the plan).
   */
  public static int minReplicas(int plan, int max, Optional<DirectFloor> floor, Instant now) {
    return floor
        .filter(f -> f.holdsAt(now))
        .map(f -> Math.max(plan, Math.min(f.replicas(), max)))
        .orElse(plan);
  }

  /** How long the floor still holds: when the pool must be looked at again to lower it. */
  public static Optional<Duration> remaining(Optional<DirectFloor> floor, Instant now) {
    return floor.filter(f -> f.holdsAt(now)).map(f -> Duration.between(now, f.until()));
  }
}
