package dev.isolato.calibration;

/**
 * Which tenant sends each request of a class's step, so that the class receives one evenly spaced
 * stream with each tenant's exact count, its requests spread through it (smooth weighted round
 * robin: at each request every tenant gains its count, the one with the most credit sends and pays
 * the total).
 *
 * <p>Why one stream per class: a stream per tenant suffered twice. Started at the same instant, the
 * tenants' k-th requests left together (bursts of as many requests as tenants). Staggered, each
 * stream still went through Gatling's per-second sharding, which puts a second's users from its
 * first millisecond on: at 0.75 req/s per tenant every arrival fell on a second boundary, and the
 * pod saw gaps with a coefficient of variation of 0.3-0.8 where the referee's were 0.01.
 */
public final class TenantOrder {
  private TenantOrder() {}

  /** Tenant indexes, one per request, {@code counts[i]} of them equal to i. */
  public static int[] interleave(long[] counts) {
    long total = 0;
    for (long c : counts) {
      if (c < 0) {
        throw new IllegalArgumentException("a tenant's request count must be >= 0, not " + c);
      }
      total += c;
    }
    if (total > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many requests in one step: " + total);
    }
    int[] order = new int[(int) total];
    long[] credit = new long[counts.length];
    for (int n = 0; n < order.length; n++) {
      int best = 0;
      for (int i = 0; i < counts.length; i++) {
        credit[i] += counts[i];
        if (credit[i] > credit[best]) {
          best = i;
        }
      }
      credit[best] -= total;
      order[n] = best;
    }
    return order;
  }
}
