package dev.isolato.gatling.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What each request is: saas-bench's route by default, or a provider's service's endpoints in a
 * weighted mix (docs/bring-your-service.md, "Calibrating your service"), the tenant in the path
 * ({@code {tenant}}) or in a header, as the class's tenantKey says. {@code isolato.requests} is
 * {@code METHOD:/path[*weight],...} (e.g. {@code GET:/get*3,POST:/anything}: three GETs to one
 * POST), {@code isolato.tenantHeader} the header naming the tenant.
 *
 * <p>Every tenant's k-th request in a step is endpoint {@code cycle[k % cycle.length]}: the weights
 * interleaved as {@link TenantOrder} interleaves tenants, so each tenant sends the mix, not one
 * endpoint, however the tenants alternate. The cycle is exported with the plan, so the referee
 * sends the same endpoints without deriving anything.
 */
public final class RequestMix {
  /** saas-bench's per-tenant route. */
  public static final String SAAS_BENCH = "POST:/v1/tenants/{tenant}/requests";

  private static final Pattern ENTRY = Pattern.compile("([A-Za-z]+):(/[^*\\s]*)(?:\\*([0-9]+))?");
  private static final Pattern HEADER = Pattern.compile("[A-Za-z0-9-]*");

  private final List<Endpoint> endpoints;
  private final String tenantHeader;
  private final int[] cycle;

  private RequestMix(List<Endpoint> endpoints, String tenantHeader, int[] cycle) {
    this.endpoints = endpoints;
    this.tenantHeader = tenantHeader;
    this.cycle = cycle;
  }

  public List<Endpoint> endpoints() {
    return endpoints;
  }

  /** The header that names the tenant; empty: none (the tenant is in the path). */
  public String tenantHeader() {
    return tenantHeader;
  }

  /** Indexes into {@link #endpoints}: a tenant's requests go through it in turn. */
  public int[] cycle() {
    return cycle.clone();
  }

  /** One endpoint of the mix: {@code path} may hold {@code {tenant}}. */
  public record Endpoint(String method, String path, int weight) {
    public String path(String tenant) {
      return path.replace("{tenant}", tenant);
    }

    /** GET and HEAD carry no body. */
    public boolean hasBody() {
      return !method.equals("GET") && !method.equals("HEAD");
    }
  }

  /** The mix of {@code isolato.requests} and {@code isolato.tenantHeader}. */
  public static RequestMix of(Settings s) {
    List<Endpoint> endpoints = new ArrayList<>();
    for (String item : s.list("requests", SAAS_BENCH)) {
      Matcher m = ENTRY.matcher(item);
      if (!m.matches()) {
        throw new IllegalArgumentException(
            Settings.PREFIX
                + "requests: '"
                + item
                + "' is not METHOD:/path or METHOD:/path*weight (e.g. GET:/get*3)");
      }
      int weight = m.group(3) == null ? 1 : Integer.parseInt(m.group(3));
      if (weight < 1) {
        throw new IllegalArgumentException(
            Settings.PREFIX + "requests: the weight of '" + item + "' must be >= 1");
      }
      endpoints.add(new Endpoint(m.group(1).toUpperCase(Locale.ROOT), m.group(2), weight));
    }
    String header = s.string("tenantHeader", "");
    if (!HEADER.matcher(header).matches()) {
      throw new IllegalArgumentException(
          Settings.PREFIX + "tenantHeader: '" + header + "' is not a header name");
    }
    long[] weights = endpoints.stream().mapToLong(Endpoint::weight).toArray();
    return new RequestMix(List.copyOf(endpoints), header, TenantOrder.interleave(weights));
  }

  /** The endpoint of a tenant's {@code nth} request (0-based) in a step. */
  public Endpoint pick(long nth) {
    return endpoints.get(cycle[(int) (nth % cycle.length)]);
  }

  /**
   * For each place of a step's tenant order, how many requests its tenant sent before in the step:
   * the {@code nth} of {@link #pick}.
   */
  public static long[] nthOfTenant(int[] order, int tenants) {
    long[] seen = new long[tenants];
    long[] nth = new long[order.length];
    for (int i = 0; i < order.length; i++) {
      nth[i] = seen[order[i]]++;
    }
    return nth;
  }
}
