package dev.isolato.calibration;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What each request of a calibration is: saas-bench's route by default, or a provider's service's
 * endpoints in a weighted mix (docs/bring-your-service.md, "Calibrating your service"), the tenant
 * in the path ({@code {tenant}}) or in a header, as the class's tenantKey says. One definition for
 * every instrument: the Gatling simulations ({@code isolato.requests}, the text form {@code
 * METHOD:/path[*weight],...}, e.g. {@code GET:/get*3,POST:/anything}: three GETs to one POST), the
 * plan they export to the open-loop referee, and a class's {@code spec.requestMix}, which the
 * in-context calibration's generator replays.
 *
 * <p>Every tenant's k-th request in a step is endpoint {@code cycle[k % cycle.length]}: the weights
 * interleaved as {@link TenantOrder} interleaves tenants, so each tenant sends the mix, not one
 * endpoint, however the tenants alternate. The cycle is exported ({@link #exported}), so the
 * referee sends the same endpoints without deriving anything.
 */
public final class RequestMix {
  /** saas-bench's per-tenant route. */
  public static final String SAAS_BENCH = "POST:/v1/tenants/{tenant}/requests";

  /** An HTTP method of a mix (RE2 and ECMA syntax alike, for the CRD schema). */
  public static final String METHOD = "^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$";

  /** An absolute path of printable ASCII, no space, comma or {@code *} (the text form's marks). */
  public static final String PATH = "^/[!-)+\\--~]*$";

  /** A header naming the tenant; empty: none. */
  public static final String HEADER = "^[A-Za-z0-9_-]{0,64}$";

  public static final int MAX_PATH_LENGTH = 256;
  public static final int MAX_ENDPOINTS = 16;
  public static final int MAX_WEIGHT = 100;

  private static final Pattern ENTRY = Pattern.compile("([A-Za-z]+):(/[^*\\s]*)(?:\\*([0-9]+))?");
  private static final Pattern METHOD_RE = Pattern.compile(METHOD);
  private static final Pattern PATH_RE = Pattern.compile(PATH);
  private static final Pattern HEADER_RE = Pattern.compile(HEADER);

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

  /**
   * A mix of these endpoints.
   *
   * @throws IllegalArgumentException naming the first endpoint (or the header) that is not one a
   *     mix may hold
   */
  public static RequestMix of(List<Endpoint> endpoints, String tenantHeader) {
    if (endpoints.isEmpty() || endpoints.size() > MAX_ENDPOINTS) {
      throw new IllegalArgumentException(
          "a request mix has 1 to " + MAX_ENDPOINTS + " endpoints, not " + endpoints.size());
    }
    for (Endpoint e : endpoints) {
      endpointProblem(e.method(), e.path(), e.weight())
          .ifPresent(
              p -> {
                throw new IllegalArgumentException(
                    "'" + e.method() + ":" + e.path() + "*" + e.weight() + "': " + p);
              });
    }
    String header = tenantHeader == null ? "" : tenantHeader;
    if (!HEADER_RE.matcher(header).matches()) {
      throw new IllegalArgumentException(
          "the tenant header '" + header + "' is not a header name (1-64 of A-Z a-z 0-9 - _)");
    }
    long[] weights = endpoints.stream().mapToLong(Endpoint::weight).toArray();
    return new RequestMix(List.copyOf(endpoints), header, TenantOrder.interleave(weights));
  }

  /**
   * The mix of the text form's items ({@code METHOD:/path} or {@code METHOD:/path*weight}).
   *
   * @throws IllegalArgumentException naming the item that is not one
   */
  public static RequestMix parse(List<String> items, String tenantHeader) {
    List<Endpoint> endpoints = new ArrayList<>();
    for (String item : items) {
      Matcher m = ENTRY.matcher(item);
      if (!m.matches()) {
        throw new IllegalArgumentException(
            "'" + item + "' is not METHOD:/path or METHOD:/path*weight (e.g. GET:/get*3)");
      }
      int weight = m.group(3) == null ? 1 : Integer.parseInt(m.group(3));
      endpoints.add(new Endpoint(m.group(1).toUpperCase(Locale.ROOT), m.group(2), weight));
    }
    return of(endpoints, tenantHeader);
  }

  /** saas-bench's route, the tenant in the path. */
  public static RequestMix saasBench() {
    return parse(List.of(SAAS_BENCH), "");
  }

  /**
   * What is wrong with one endpoint, in words a person can act on, naming its field ({@code
   * method}, {@code path} or {@code weight}); empty: nothing.
   */
  public static Optional<FieldError> endpointProblem(String method, String path, int weight) {
    if (method == null || !METHOD_RE.matcher(method).matches()) {
      return Optional.of(
          new FieldError(
              "method",
              "must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, was '" + method + "'"));
    }
    if (path == null || path.length() > MAX_PATH_LENGTH || !PATH_RE.matcher(path).matches()) {
      return Optional.of(
          new FieldError(
              "path",
              "must start with / and hold at most "
                  + MAX_PATH_LENGTH
                  + " printable characters, no space, comma or *, was '"
                  + path
                  + "'"));
    }
    if (weight < 1 || weight > MAX_WEIGHT) {
      return Optional.of(
          new FieldError("weight", "must be between 1 and " + MAX_WEIGHT + ", was " + weight));
    }
    return Optional.empty();
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

  /**
   * The mix as the referee reads it (its {@code Request}: a plan's {@code requests}, or its {@code
   * -request} flag): the endpoints, the header naming the tenant, and the cycle.
   */
  public Map<String, Object> exported() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(
        "endpoints",
        endpoints.stream()
            .map(
                e -> {
                  Map<String, Object> m = new LinkedHashMap<>();
                  m.put("method", e.method());
                  m.put("path", e.path());
                  m.put("weight", e.weight());
                  return m;
                })
            .toList());
    out.put("tenantHeader", tenantHeader);
    out.put("cycle", cycle());
    return out;
  }
}
