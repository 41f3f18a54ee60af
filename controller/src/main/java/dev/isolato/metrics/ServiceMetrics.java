package dev.isolato.metrics;

/**
 * The one metrics contract of a pool pod, whatever app it runs: the isolato-gate sidecar's
 * Prometheus names (GATE-CONTRACT.md). Every reader (the direct scaler, the KEDA triggers, the
 * Prometheus rules in helm/isolato/files/isolato-rules.yaml, the profiler through those rules) uses
 * these names, so a provider's service needs no metrics of its own.
 */
public final class ServiceMetrics {
  /** Counter {tenant, code}: every answered tenant request, 429/502/504 included. */
  public static final String REQUESTS = "isolato_gate_requests_total";

  /** Histogram {tenant}: request in to response out at the gate. */
  public static final String DURATION = "isolato_gate_request_duration_seconds";

  /** The histogram's buckets. */
  public static final String DURATION_BUCKET = DURATION + "_bucket";

  /** The histogram's count. */
  public static final String DURATION_COUNT = DURATION + "_count";

  /** Counter {tenant, reason}: reason rate, unknown_tenant, overload or draining. */
  public static final String REJECTED = "isolato_gate_rejected_total";

  /** Counter {tenant, kind}: upstream connect, reset or timeout failures. */
  public static final String UPSTREAM_ERRORS = "isolato_gate_upstream_errors_total";

  /**
   * Gauge: requests in the gate now. Not in the gate contract yet: a scrape without it reads 0,
   * which leaves the direct scaler's rate to the answered requests alone.
   */
  public static final String IN_FLIGHT = "isolato_gate_in_flight_requests";

  /** The tenant label of requests whose tenant is not in the table (unknownTenant: pass). */
  public static final String UNKNOWN_TENANT = "_unknown";

  /** Prometheus' scrape job of the pool pods (localkube and the Helm chart). */
  public static final String POOL_JOB = "isolato-pools";

  private ServiceMetrics() {}
}
