package dev.isolato.calibration;

/**
 * Distribution-free confidence interval of a quantile from the order statistics of a sample: the
 * number B of samples below the true q-quantile is Binomial(n, q), so it lies between the samples
 * of ranks {@code low} and {@code high} when low <= B < high. The ranks are the tightest with each
 * tail at most (1 - confidence) / 2. The same ranks as gatling/experiments/runner/knee.py and the
 * Go referee (gatling/openloop), held to the shared vectors in
 * src/test/resources/quantile-ci-ranks.json.
 *
 * @param low 1-based rank of the lower bound; 0 when the sample is too small to give one
 * @param high 1-based rank of the upper bound; n + 1 when the sample is too small to give one (at q
 *     = 0.95 and 95 %: fewer than 72 samples)
 */
public record QuantileInterval(int low, int high) {

  /** The p95's interval at 95 % confidence, the one the format stores (p95Low, p95High). */
  public static QuantileInterval p95(int n) {
    return of(n, 0.95, 0.95);
  }

  /** The ranks for {@code n} samples of the {@code q}-quantile at {@code confidence}. */
  public static QuantileInterval of(int n, double q, double confidence) {
    if (n < 1 || !(q > 0 && q < 1) || !(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException(
          "need n >= 1, 0 < q < 1, 0 < confidence < 1, not " + n + ", " + q + ", " + confidence);
    }
    double tail = (1 - confidence) / 2;
    double[] cdf = binomialCdf(n, q);
    int low = 0;
    while (low + 1 <= n && cdf[low] <= tail) {
      low++; // P(B <= low - 1) <= tail: rank low is still a lower bound
    }
    int high = n + 1;
    while (high - 1 >= 1 && 1 - cdf[high - 2] <= tail) {
      high--; // P(B >= high - 1) <= tail: rank high - 1 is still an upper bound
    }
    return new QuantileInterval(low, high);
  }

  /** P(B <= k) for k = 0..n, the probability mass by its ratio recurrence in log space. */
  private static double[] binomialCdf(int n, double q) {
    double[] cdf = new double[n + 1];
    double logPmf = n * Math.log1p(-q);
    double logOdds = Math.log(q) - Math.log1p(-q);
    double sum = 0;
    for (int k = 0; k <= n; k++) {
      if (k > 0) {
        logPmf += Math.log((double) (n - k + 1) / k) + logOdds;
      }
      sum += Math.exp(logPmf);
      cdf[k] = Math.min(sum, 1.0);
    }
    cdf[n] = 1.0;
    return cdf;
  }

  /** Whether the sample gives a lower bound. */
  public boolean hasLow() {
    return low >= 1;
  }

  /** Whether the sample of {@code n} gives an upper bound. */
  public boolean hasHigh(int n) {
    return high <= n;
  }
}
