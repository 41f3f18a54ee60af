package dev.isolato.slo;

import static dev.isolato.slo.Text.fmt;

/**
 * Classifies a tenant from the rate it offered over a window (requests its class's pods received,
 * refused ones included) against its commitment: {@code aggressive} above commitment × {@link
 * Policy#aggressiveAbove}, {@code passive} below commitment × {@link Policy#passiveBelow}, else
 * {@code abiding}; {@code unknown} while there is no measurement or the tenant has been served for
 * less than the window (a new tenant's first minutes say nothing about it).
 */
public final class TenantProfiler {
  private final Policy policy;

  public TenantProfiler(Policy policy) {
    this.policy = policy;
  }

  /** What a tenant's measured rate says about it. */
  public enum Behaviour {
    ABIDING,
    AGGRESSIVE,
    PASSIVE,
    UNKNOWN;

    /** The lower-case name used in status, metrics and events. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * When a tenant counts as aggressive, passive or not yet known.
   *
   * @param aggressiveAbove offered/committed ratio above which a tenant is aggressive (e.g. 1.1:
   *     10% over commitment, beyond the noise of a rate measured over the window)
   * @param passiveBelow ratio below which it is passive (e.g. 0.25)
   * @param windowSeconds the rate's averaging window; a tenant served for less is unknown
   */
  public record Policy(double aggressiveAbove, double passiveBelow, long windowSeconds) {
    public static Policy defaults() {
      return new Policy(1.1, 0.25, 600);
    }

    public Policy {
      if (!(aggressiveAbove >= 1)) {
        throw new IllegalArgumentException("aggressiveAbove must be >= 1, was " + aggressiveAbove);
      }
      if (!(passiveBelow >= 0 && passiveBelow < 1)) {
        throw new IllegalArgumentException("passiveBelow must be in [0, 1), was " + passiveBelow);
      }
      if (windowSeconds < 1) {
        throw new IllegalArgumentException("windowSeconds must be >= 1, was " + windowSeconds);
      }
    }
  }

  /**
   * A tenant's profile.
   *
   * @param measuredRps the offered rate over the window; null when unknown
   * @param reason one line saying why, for status and events
   */
  public record Profile(
      Behaviour behaviour, Double measuredRps, double committedRps, String reason) {}

  /**
   * What {@code measuredRps} says about a tenant committed to {@code committedRps}.
   *
   * @param measuredRps offered rate over the window, null when no measurement exists
   * @param servedSeconds how long the tenant has been served (null: not served yet)
   */
  public Profile classify(double committedRps, Double measuredRps, Long servedSeconds) {
    if (measuredRps == null || !Double.isFinite(measuredRps) || measuredRps < 0) {
      return new Profile(Behaviour.UNKNOWN, null, committedRps, "no rate measured for the tenant");
    }
    if (servedSeconds == null || servedSeconds < policy.windowSeconds()) {
      return new Profile(
          Behaviour.UNKNOWN,
          measuredRps,
          committedRps,
          fmt("served for less than the %d s profiling window", policy.windowSeconds()));
    }
    double ratio = committedRps > 0 ? measuredRps / committedRps : Double.POSITIVE_INFINITY;
    String measured =
        fmt(
            "offered %.2f rps over %d s, %.0f%% of its commitment %.2f rps",
            measuredRps, policy.windowSeconds(), 100 * ratio, committedRps);
    if (measuredRps > committedRps * policy.aggressiveAbove()) {
      return new Profile(
          Behaviour.AGGRESSIVE,
          measuredRps,
          committedRps,
          fmt("%s (aggressive above %.0f%%)", measured, 100 * policy.aggressiveAbove()));
    }
    if (measuredRps < committedRps * policy.passiveBelow()) {
      return new Profile(
          Behaviour.PASSIVE,
          measuredRps,
          committedRps,
          fmt("%s (passive below %.0f%%)", measured, 100 * policy.passiveBelow()));
    }
    return new Profile(Behaviour.ABIDING, measuredRps, committedRps, measured);
  }

  /**
   * The demand the planner counts for a profiled tenant: a passive tenant at its measured rate when
   * the class opts in, every other tenant at its commitment.
   */
  public static TenantDemand demand(
      String tenantId, double committedRps, Profile profile, boolean countPassiveAtMeasured) {
    if (countPassiveAtMeasured && profile != null && profile.behaviour() == Behaviour.PASSIVE) {
      return new TenantDemand(
          tenantId, committedRps, Math.min(committedRps, profile.measuredRps()));
    }
    return new TenantDemand(tenantId, committedRps);
  }
}
