package dev.isolato.config;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts every request the controller's Kubernetes client sends, by HTTP method: the API write
 * calls per tenant are a design goal (few writes on the hot path), and a test asserts that a no-op
 * reconcile writes nothing.
 */
public class ApiCallCounter implements Interceptor {
  public static final String NAME = "isolato-api-call-counter";

  private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

  private static final org.slf4j.Logger log =
      org.slf4j.LoggerFactory.getLogger(ApiCallCounter.class);

  private final MeterRegistry registry;
  private final AtomicLong writes = new AtomicLong();
  private final AtomicLong all = new AtomicLong();

  public ApiCallCounter(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    String method = request.method();
    String kind = kind(method, request.uri().getPath());
    boolean write = "write".equals(kind);
    all.incrementAndGet();
    if (write) {
      writes.incrementAndGet();
      log.debug("API write {} {}", method, request.uri());
    }
    Counter.builder("isolato.api.client.requests")
        .description("Requests sent to the Kubernetes API server")
        .tags("method", method, "kind", kind)
        .register(registry)
        .increment();
  }

  /**
   * "write" for calls that change stored objects; "lease" for leader-election renewals and "review"
   * for token/access reviews (POSTs that store nothing); "read" for the rest.
   */
  static String kind(String method, String path) {
    if (!WRITES.contains(method)) {
      return "read";
    }
    if (path.contains("/coordination.k8s.io/") && path.contains("/leases")) {
      return "lease";
    }
    if (path.endsWith("reviews")) {
      return "review";
    }
    return "write";
  }

  /** Write calls (POST, PUT, PATCH, DELETE on stored objects, leases excluded) since start. */
  public long writes() {
    return writes.get();
  }

  public long requests() {
    return all.get();
  }
}
