package dev.isolato.tenancy;

import dev.isolato.calibration.CalibrationContext;

/**
 * The one definition of each bound on what a provider declares: the CRD schema (generator
 * annotations on {@link TenantSpec} and {@link SloClassSpec}), the OpenAPI document (the same
 * annotations on the API's request records) and the REST validation all read these constants, so
 * the API rejects with 400 exactly what the API server would reject with 422.
 */
public final class SpecLimits {
  /** A DNS-1123 label (names of classes and tenants; RE2 and ECMA syntax alike). */
  public static final String DNS1123_LABEL = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";

  /** A positive Kubernetes quantity such as 500m, 1 or 256Mi (zero is no resource). */
  public static final String POSITIVE_QUANTITY = CalibrationContext.POSITIVE_QUANTITY;

  /** An image reference: no whitespace. */
  public static final String IMAGE = "^\\S+$";

  public static final int MAX_IMAGE_LENGTH = 512;

  /**
   * The gate's --tenant-key, no wider than the gate takes (gate/src/tenant_key.cpp): a header name
   * of 1-64 letters, digits, '-' or '_'; a path prefix of one or more whole segments; or host.
   */
  public static final String TENANT_KEY =
      "^(header:[A-Za-z0-9_-]{1,64}|path:/([A-Za-z0-9._~-]+/){1,16}|host)$";

  /** Candidate pod sizes a class may declare (each is calibrated separately). */
  public static final int MAX_CPU_CANDIDATES = 8;

  /** Request rates (req/s): committed rates and per-pod cut-offs. */
  public static final double MIN_RPS = 0.001;

  public static final double MAX_RPS = 1_000_000;

  /** Token-bucket depth (requests). */
  public static final double MIN_BURST = 1;

  /** Work of one request, in saas-bench units. */
  public static final int MAX_PROFILE_CPU = 100_000;

  public static final int MAX_PROFILE_MEMORY = 262_144;
  public static final int MAX_PROFILE_IO = 16_384;

  public static final double MIN_PERCENTILE = 1;
  public static final double MAX_PERCENTILE = 99.999;
  public static final double MIN_TARGET_MS = 0.001;
  public static final double MAX_TARGET_MS = 3_600_000;
  public static final int MAX_REPLICAS = 1000;

  /** The value range Kubernetes allows a user-defined PriorityClass. */
  public static final int MAX_PRIORITY = 1_000_000_000;

  /** spec.gate.maxAppRequests: one connection each, so never above the gate's connection cap. */
  public static final int MAX_APP_REQUESTS = Workload.GATE_MAX_CONNECTIONS;

  public static final int MIN_QUEUE_TIMEOUT_MS = 10;
  public static final int MAX_QUEUE_TIMEOUT_MS = 60_000;

  public static final int MIN_PIVOT_PERCENT = 1;
  public static final int MAX_PIVOT_PERCENT = 100;

  private SpecLimits() {}
}
