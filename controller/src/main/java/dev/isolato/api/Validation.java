package dev.isolato.api;

import static dev.isolato.tenancy.SpecLimits.*;

import dev.isolato.calibration.FieldError;
import dev.isolato.tenancy.ClassRequests;
import dev.isolato.tenancy.PodPlacement;
import dev.isolato.tenancy.PoolContainers;
import dev.isolato.tenancy.PoolNames;
import dev.isolato.tenancy.SloClassSpec;
import dev.isolato.tenancy.WorkloadRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Pure request validation: every problem at once, each naming its field. The bounds are {@link
 * dev.isolato.tenancy.SpecLimits}, the same the CRD schema and the OpenAPI document declare.
 */
public final class Validation {
  static final Pattern LABEL = Pattern.compile(DNS1123_LABEL);
  static final Pattern QUANTITY = Pattern.compile(POSITIVE_QUANTITY);
  static final Pattern IMAGE_REF = Pattern.compile(IMAGE);
  static final Pattern TENANT_KEY_PATTERN = Pattern.compile(TENANT_KEY);

  /** isolato-c-<class> and isolato-t-<tenant> must fit a 63-character namespace name. */
  public static final int MAX_CLASS_NAME = PoolNames.MAX_CLASS_NAME;

  public static final int MAX_TENANT_ID = PoolNames.MAX_TENANT_ID;
  static final Set<String> ISOLATIONS = Set.of("shared", "dedicated");

  /** Longest name of a path or query parameter naming a class or tenant. */
  public static final int MAX_NAME = 63;

  private Validation() {}

  /** Whether an object of the API can have this name; others are not looked up (404). */
  public static boolean possibleName(String name) {
    return name != null
        && !name.isEmpty()
        && name.length() <= MAX_NAME
        && LABEL.matcher(name).matches();
  }

  public static List<FieldError> tenant(TenantRequest r) {
    List<FieldError> e = new ArrayList<>();
    PoolNames.tenantIdProblem(r.tenantId()).ifPresent(m -> e.add(new FieldError("tenantId", m)));
    PoolNames.labelProblem(r.sloClass(), MAX_CLASS_NAME)
        .ifPresent(m -> e.add(new FieldError("sloClass", m)));
    if (r.committedRps() == null) {
      e.add(new FieldError("committedRps", "is required"));
    } else {
      range(e, "committedRps", r.committedRps(), MIN_RPS, MAX_RPS);
    }
    if (r.burst() != null) {
      range(e, "burst", r.burst(), MIN_BURST, MAX_RPS);
    }
    if (r.profile() != null) {
      intRange(e, "profile.cpu", r.profile().cpu(), 0, MAX_PROFILE_CPU);
      intRange(e, "profile.memory", r.profile().memory(), 0, MAX_PROFILE_MEMORY);
      intRange(e, "profile.io", r.profile().io(), 0, MAX_PROFILE_IO);
    }
    if (r.isolation() != null && !ISOLATIONS.contains(r.isolation())) {
      e.add(
          new FieldError("isolation", "must be shared or dedicated, was '" + r.isolation() + "'"));
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
      range(e, "spec.latency.percentile", s.latency.percentile, MIN_PERCENTILE, MAX_PERCENTILE);
      range(e, "spec.latency.targetMs", s.latency.targetMs, MIN_TARGET_MS, MAX_TARGET_MS);
    }
    if (s.resources == null) {
      e.add(new FieldError("spec.resources", "is required"));
    } else {
      quantity(e, "spec.resources.cpu", s.resources.cpu);
      quantity(e, "spec.resources.memory", s.resources.memory);
      cpuCandidates(e, s.resources.cpuCandidates);
      aboveGate(e, "spec.resources.cpu", s.resources.cpu, "cpu");
      aboveGate(e, "spec.resources.memory", s.resources.memory, "memory");
      if (s.resources.cpuCandidates != null
          && s.resources.cpuCandidates.stream()
              .anyMatch(
                  c ->
                      c != null
                          && QUANTITY.matcher(c).matches()
                          && !PoolContainers.exceedsGate(c, "cpu"))) {
        e.add(new FieldError("spec.resources.cpuCandidates", WorkloadRules.POD_SIZE_MESSAGE));
      }
    }
    if (s.headroom != null) {
      quantity(e, "spec.headroom.cpu", s.headroom.cpu);
    }
    if (s.storage != null && s.storage.scratch != null) {
      quantity(e, "spec.storage.scratch", s.storage.scratch);
    }
    if (s.gate != null) {
      intRange(e, "spec.gate.maxAppRequests", s.gate.maxAppRequests, 1, MAX_APP_REQUESTS);
      intRange(
          e,
          "spec.gate.queueTimeoutMs",
          s.gate.queueTimeoutMs,
          MIN_QUEUE_TIMEOUT_MS,
          MAX_QUEUE_TIMEOUT_MS);
    }
    e.addAll(PodPlacement.problems(s.placement));
    intRange(e, "spec.minReplicas", s.minReplicas, 1, MAX_REPLICAS);
    if (s.maxReplicas < s.minReplicas || s.maxReplicas > MAX_REPLICAS) {
      e.add(
          new FieldError(
              "spec.maxReplicas",
              "must be between minReplicas ("
                  + s.minReplicas
                  + ") and "
                  + MAX_REPLICAS
                  + ", was "
                  + s.maxReplicas));
    }
    intRange(e, "spec.pivotPercent", s.pivotPercent, MIN_PIVOT_PERCENT, MAX_PIVOT_PERCENT);
    intRange(e, "spec.priority", s.priority, -MAX_PRIORITY, MAX_PRIORITY);
    range(e, "spec.perPodCutoffRps", s.perPodCutoffRps, MIN_RPS, MAX_RPS);
    if (s.image != null
        && (s.image.length() > MAX_IMAGE_LENGTH || !IMAGE_REF.matcher(s.image).matches())) {
      e.add(
          new FieldError(
              "spec.image",
              "must be an image reference without spaces, at most "
                  + MAX_IMAGE_LENGTH
                  + " characters"));
    }
    if (s.tenantKey != null && !TENANT_KEY_PATTERN.matcher(s.tenantKey).matches()) {
      e.add(
          new FieldError(
              "spec.tenantKey",
              "must be header:<name> (1-64 of A-Z a-z 0-9 - _), path:/<prefix>/ or host, was '"
                  + s.tenantKey
                  + "'"));
    } else {
      e.addAll(ClassRequests.problems(s));
    }
    return e;
  }

  private static void cpuCandidates(List<FieldError> e, List<String> candidates) {
    if (candidates == null) {
      return;
    }
    if (candidates.size() > MAX_CPU_CANDIDATES) {
      e.add(
          new FieldError(
              "spec.resources.cpuCandidates",
              "must have at most "
                  + MAX_CPU_CANDIDATES
                  + " sizes (each is calibrated separately), had "
                  + candidates.size()));
    }
    for (int i = 0; i < candidates.size(); i++) {
      quantity(e, "spec.resources.cpuCandidates[" + i + "]", candidates.get(i));
    }
  }

  /** [min, max]; NaN and infinities are rejected. */
  private static void range(List<FieldError> e, String field, double v, double min, double max) {
    if (!Double.isFinite(v) || v < min || v > max) {
      e.add(
          new FieldError(field, "must be between " + fmt(min) + " and " + fmt(max) + ", was " + v));
    }
  }

  private static void intRange(List<FieldError> e, String field, Integer v, int min, int max) {
    if (v != null && (v < min || v > max)) {
      e.add(new FieldError(field, "must be between " + min + " and " + max + ", was " + v));
    }
  }

  private static void quantity(List<FieldError> e, String field, String v) {
    if (v == null || v.isBlank()) {
      e.add(new FieldError(field, "is required"));
    } else if (!QUANTITY.matcher(v).matches()) {
      e.add(
          new FieldError(
              field,
              "must be a positive Kubernetes quantity such as 500m, 1 or 256Mi, was '" + v + "'"));
    }
  }

  /** A well-formed pod size that leaves the app nothing after the gate's share. */
  private static void aboveGate(List<FieldError> e, String field, String v, String resource) {
    if (v != null && QUANTITY.matcher(v).matches() && !PoolContainers.exceedsGate(v, resource)) {
      e.add(new FieldError(field, WorkloadRules.POD_SIZE_MESSAGE));
    }
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
