package dev.isolato.tenancy;

import dev.isolato.slo.TenantProfiler;
import dev.isolato.slo.TenantProfiler.Behaviour;
import dev.isolato.slo.TenantProfiler.Profile;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Pure mapping between the tenant profiler's {@link Profile} and {@link TenantStatus#profile}, and
 * when a change is worth a status write or a Kubernetes Event.
 */
public final class TenantProfiles {
  /** A stored rate is rewritten when the measurement moved by this share of the commitment. */
  static final double RATE_CHANGE = 0.1;

  private TenantProfiles() {}

  /** An Event to record on the Tenant: reason (CamelCase), type (Normal/Warning), message. */
  public record ProfileEvent(String reason, String type, String message) {}

  /**
   * The profile stored in the tenant's status as the planner reads it; null when none or
   * unreadable.
   */
  public static Profile profile(Tenant t) {
    TenantStatus.RateProfile p = t.getStatus() == null ? null : t.getStatus().profile;
    if (p == null || p.behaviour == null) {
      return null;
    }
    try {
      return new Profile(
          Behaviour.valueOf(p.behaviour.toUpperCase(Locale.ROOT)),
          p.offeredRps,
          p.committedRps,
          p.reason);
    } catch (IllegalArgumentException e) {
      return null; // written by hand: no profile
    }
  }

  /**
   * How long the tenant has been served at {@code now}; null when it is not (or the time is
   * unreadable).
   */
  public static Long servedSeconds(Tenant t, Instant now) {
    String since = t.getStatus() == null ? null : t.getStatus().servingSince;
    try {
      return since == null
          ? null
          : Math.max(0, Duration.between(Instant.parse(since), now).toSeconds());
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** The status form of {@code p}; {@code since} carries over while the behaviour stays. */
  public static TenantStatus.RateProfile toStatus(
      Profile p, TenantStatus.RateProfile prev, long windowSeconds, Instant now) {
    TenantStatus.RateProfile s = new TenantStatus.RateProfile();
    s.behaviour = p.behaviour().label();
    s.offeredRps = p.measuredRps();
    s.committedRps = p.committedRps();
    s.windowSeconds = windowSeconds;
    s.reason = p.reason();
    s.since =
        prev != null && s.behaviour.equals(prev.behaviour) && prev.since != null
            ? prev.since
            : now.toString();
    s.measuredAt = now.toString();
    return s;
  }

  /**
   * Whether {@code next} is worth a status write: the behaviour or the commitment changed, or the
   * measured rate moved by {@value #RATE_CHANGE} of the commitment (a passive tenant's rate is what
   * the planner counts); not for every new measurement, which would rewrite every tenant at each
   * profiling pass.
   */
  public static boolean worthWriting(TenantStatus.RateProfile prev, TenantStatus.RateProfile next) {
    if (prev == null
        || !Objects.equals(prev.behaviour, next.behaviour)
        || prev.committedRps != next.committedRps
        || prev.windowSeconds != next.windowSeconds) {
      return true;
    }
    if (prev.offeredRps == null || next.offeredRps == null) {
      return !Objects.equals(prev.offeredRps, next.offeredRps);
    }
    return Math.abs(prev.offeredRps - next.offeredRps)
        >= RATE_CHANGE * Math.max(next.committedRps, 1e-9);
  }

  /** The Event of a change of behaviour to a known one; none when it stays or becomes unknown. */
  public static Optional<ProfileEvent> event(
      TenantStatus.RateProfile prev, TenantStatus.RateProfile next) {
    if (Behaviour.UNKNOWN.label().equals(next.behaviour)
        || (prev != null && Objects.equals(prev.behaviour, next.behaviour))) {
      return Optional.empty();
    }
    String reason =
        "Tenant" + Character.toUpperCase(next.behaviour.charAt(0)) + next.behaviour.substring(1);
    String type = Behaviour.AGGRESSIVE.label().equals(next.behaviour) ? "Warning" : "Normal";
    String was = prev == null || prev.behaviour == null ? "" : " (was " + prev.behaviour + ")";
    return Optional.of(new ProfileEvent(reason, type, next.behaviour + was + ": " + next.reason));
  }

  /**
   * The profiler's verdict for a tenant whose class's pods offered {@code offeredRps} (null: no
   * measurement).
   */
  public static Profile classify(
      TenantProfiler profiler, Tenant t, Double offeredRps, Instant now) {
    return profiler.classify(t.getSpec().committedRps, offeredRps, servedSeconds(t, now));
  }
}
