package dev.isolato.metrics;

/**
 * The per-tenant series the pool pods export and the controller queries (through Prometheus or by
 * scraping): the one place their names are spelled. Today the workload's own ({@code saasbench_*},
 * docs/saas-bench.md).
 */
public final class ServiceMetrics {
  private ServiceMetrics() {}

  /** Requests answered, any status, by tenant (counter). */
  public static final String REQUESTS_TOTAL = "saasbench_requests_total";

  /** Request latency histogram buckets, by tenant (seconds). */
  public static final String REQUEST_DURATION_BUCKET = "saasbench_request_duration_seconds_bucket";

  /** The tenant label's value for requests naming no known tenant. */
  public static final String UNKNOWN_TENANT = "_unknown";

  /** Prometheus' scrape job of the pool pods (localkube and the Helm chart). */
  public static final String POOL_JOB = "isolato-pools";
}
