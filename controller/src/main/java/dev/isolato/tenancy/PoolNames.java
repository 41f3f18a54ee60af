package dev.isolato.tenancy;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Every name Isolato derives from a class or tenant name, and which names are refused. One place,
 * so that the API, the reconciler and the pools agree.
 *
 * <p>Shared pools live in {@code isolato-c-<class>}, dedicated pools in {@code isolato-t-<tenant>}:
 * the two prefixes differ, tenant ids are unique (they are the names of Tenant objects in one
 * namespace) and class names are unique, so no two pools can share a namespace, and neither scheme
 * can produce the controller's own namespace ({@code isolato-system}) nor a Kubernetes one ({@code
 * kube-*}, {@code default}). A namespace of the right name that Isolato did not create is never
 * adopted ({@link Ownership}).
 */
public final class PoolNames {
  public static final String SHARED_PREFIX = "isolato-c-";
  public static final String DEDICATED_PREFIX = "isolato-t-";

  /** Prefix of the filler PriorityClasses (cluster-scoped, same length as the shared one). */
  public static final String FILLER_PREFIX = "isolato-f-";

  /** A namespace name is a DNS-1123 label: at most 63 characters. */
  public static final int MAX_NAMESPACE = 63;

  /** {@code isolato-c-<class>} must be a namespace name (the class name is also a label value). */
  public static final int MAX_CLASS_NAME =
      53; // = MAX_NAMESPACE - SHARED_PREFIX.length(), a constant for annotations

  /** {@code isolato-t-<tenant>} must be a namespace name (the id is also a label value). */
  public static final int MAX_TENANT_ID = 53; // = MAX_NAMESPACE - DEDICATED_PREFIX.length()

  /** Class names refused even though they no longer collide: they read as system namespaces. */
  static final Set<String> RESERVED_CLASSES = Set.of("system", "default", "isolato", "kube");

  static final String RESERVED_CLASS_PREFIX = "kube-";
  private static final Pattern DNS1123_LABEL = Pattern.compile(SpecLimits.DNS1123_LABEL);

  private PoolNames() {}

  public static String sharedNamespace(String sloClass) {
    return SHARED_PREFIX + sloClass;
  }

  public static String dedicatedNamespace(String tenantId) {
    return DEDICATED_PREFIX + tenantId;
  }

  /** The class's PriorityClass (cluster-scoped, so prefixed like the shared namespace). */
  public static String priorityClass(String sloClass) {
    return SHARED_PREFIX + sloClass;
  }

  /** The PriorityClass of the class's filler pods (as long as the class's own). */
  public static String fillerPriorityClass(String sloClass) {
    return FILLER_PREFIX + sloClass;
  }

  /**
   * Why {@code name} cannot be a class name (its shared namespace would be invalid, or it is
   * reserved), or empty when it can. Whether the namespace already exists is checked against the
   * cluster (API and reconciler), not here.
   */
  public static Optional<String> classNameProblem(String name) {
    Optional<String> label = labelProblem(name, MAX_CLASS_NAME);
    if (label.isEmpty()
        && (RESERVED_CLASSES.contains(name) || name.startsWith(RESERVED_CLASS_PREFIX))) {
      return Optional.of(
          "'" + name + "' is reserved (system, default, isolato, kube and kube-* are)");
    }
    return label;
  }

  /** Why {@code id} cannot be a tenant id (its dedicated namespace would be invalid), or empty. */
  public static Optional<String> tenantIdProblem(String id) {
    return labelProblem(id, MAX_TENANT_ID);
  }

  /** A DNS-1123 label of at most {@code max} characters. */
  public static Optional<String> labelProblem(String v, int max) {
    if (v == null || v.isEmpty()) {
      return Optional.of("is required");
    }
    if (v.length() > max) {
      return Optional.of("must be at most " + max + " characters, was " + v.length());
    }
    if (!DNS1123_LABEL.matcher(v).matches()) {
      return Optional.of(
          "must be a DNS-1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit), was '"
              + v
              + "'");
    }
    return Optional.empty();
  }
}
