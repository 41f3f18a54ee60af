package dev.isolato.api;

import dev.isolato.tenancy.PoolNames;
import dev.isolato.tenancy.SloClassSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Pure request validation: every problem at once, each naming its field. */
public final class Validation {
  static final Pattern QUANTITY = Pattern.compile("^([0-9]+(\\.[0-9]+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$");
  /** isolato-c-<class> and isolato-t-<tenant> must fit a 63-character namespace name. */
  public static final int MAX_CLASS_NAME = PoolNames.MAX_CLASS_NAME;
  public static final int MAX_TENANT_ID = PoolNames.MAX_TENANT_ID;
  static final double MAX_RPS = 1_000_000;
  static final Set<String> ISOLATIONS = Set.of("shared", "dedicated");

  private Validation() {}

  public static List<FieldError> tenant(TenantRequest r) {
    List<FieldError> e = new ArrayList<>();
    PoolNames.tenantIdProblem(r.tenantId()).ifPresent(m -> e.add(new FieldError("tenantId", m)));
    PoolNames.labelProblem(r.sloClass(), MAX_CLASS_NAME).ifPresent(m -> e.add(new FieldError("sloClass", m)));
    if (r.committedRps() == null) {
      e.add(new FieldError("committedRps", "is required"));
    } else {
      range(e, "committedRps", r.committedRps(), 0, MAX_RPS, false);
    }
    if (r.burst() != null) {
      range(e, "burst", r.burst(), 1, MAX_RPS, true);
    }
    if (r.profile() != null) {
      intRange(e, "profile.cpu", r.profile().cpu(), 100_000);
      intRange(e, "profile.memory", r.profile().memory(), 262_144);
      intRange(e, "profile.io", r.profile().io(), 16_384);
    }
    if (r.isolation() != null && !ISOLATIONS.contains(r.isolation())) {
      e.add(new FieldError("isolation", "must be shared or dedicated, was '" + r.isolation() + "'"));
    }
    return e;
  }

  public static List<FieldError> sloClass(String name, SloClassSpec s) {
    List<FieldError> e = new ArrayList<>();
    PoolNames.classNameProblem(name).ifPresent(m -> e.add(new FieldError("name", m)));
    if (s == null) {
      e.add(new FieldError("spec", "is required"));
      return e;
    }
    if (s.latency == null) {
      e.add(new FieldError("spec.latency", "is required"));
    } else {
      range(e, "spec.latency.percentile", s.latency.percentile, 0, 99.999, false);
      range(e, "spec.latency.targetMs", s.latency.targetMs, 0, 3_600_000, false);
    }
    if (s.resources == null) {
      e.add(new FieldError("spec.resources", "is required"));
    } else {
      quantity(e, "spec.resources.cpu", s.resources.cpu);
      quantity(e, "spec.resources.memory", s.resources.memory);
    }
    if (s.minReplicas < 1 || s.minReplicas > 1000) {
      e.add(new FieldError("spec.minReplicas", "must be between 1 and 1000, was " + s.minReplicas));
    }
    if (s.maxReplicas < s.minReplicas || s.maxReplicas > 1000) {
      e.add(new FieldError("spec.maxReplicas", "must be between minReplicas (" + s.minReplicas + ") and 1000, was " + s.maxReplicas));
    }
    if (s.pivotPercent < 1 || s.pivotPercent > 100) {
      e.add(new FieldError("spec.pivotPercent", "must be between 1 and 100, was " + s.pivotPercent));
    }
    if (Math.abs(s.priority) > 1_000_000_000) {
      e.add(new FieldError("spec.priority", "must be between -1000000000 and 1000000000"));
    }
    range(e, "spec.perPodCutoffRps", s.perPodCutoffRps, 0, MAX_RPS, false);
    if (s.image != null && (s.image.isBlank() || s.image.chars().anyMatch(Character::isWhitespace))) {
      e.add(new FieldError("spec.image", "must be an image reference without spaces"));
    }
    return e;
  }

  /** (min, max] or [min, max] when inclusive; NaN and infinities are rejected. */
  private static void range(List<FieldError> e, String field, double v, double min, double max, boolean inclusive) {
    boolean lowOk = inclusive ? v >= min : v > min;
    if (!Double.isFinite(v) || !lowOk || v > max) {
      e.add(new FieldError(field, "must be " + (inclusive ? "at least " : "greater than ") + fmt(min) + " and at most " + fmt(max) + ", was " + v));
    }
  }

  private static void intRange(List<FieldError> e, String field, Integer v, int max) {
    if (v != null && (v < 0 || v > max)) {
      e.add(new FieldError(field, "must be between 0 and " + max + ", was " + v));
    }
  }

  private static void quantity(List<FieldError> e, String field, String v) {
    if (v == null || v.isBlank()) {
      e.add(new FieldError(field, "is required"));
    } else if (!QUANTITY.matcher(v).matches() || v.matches("^0+(\\.0+)?[a-zA-Z]*$")) {
      e.add(new FieldError(field, "must be a positive Kubernetes quantity such as 500m, 1 or 256Mi, was '" + v + "'"));
    }
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
