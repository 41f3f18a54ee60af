package dev.isolato.calibration;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import java.util.List;

/**
 * Request count, error count and latency percentiles (milliseconds) of one calibration step, for
 * all tenants together or for one tenant.
 *
 * <p>{@code p95Low} and {@code p95High} are the p95's 95 % confidence interval: the samples at the
 * ranks of {@link QuantileInterval#p95(int)}. Optional: a bound the sample is too small to give is
 * left out (no upper bound below 72 requests), and runs written before they existed have neither.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LatencySummary(
    @Required @Min(0) long count,
    @Required @Min(0) long errors,
    @Required @Min(0) double p50,
    @Required @Min(0) double p90,
    @Required @Min(0) double p95,
    @Required @Min(0) double p99,
    @Required @Min(0) double max,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Min(0) Double p95Low,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Min(0) Double p95High) {

  /** A summary without the p95's confidence interval. */
  public LatencySummary(
      long count, long errors, double p50, double p90, double p95, double p99, double max) {
    this(count, errors, p50, p90, p95, p99, max, null, null);
  }

  /** The percentiles a calibration run reports; a class target must use one of them. */
  public static final List<Double> SUPPORTED_PERCENTILES = List.of(50.0, 90.0, 95.0, 99.0);

  /** The latency at one of the {@link #SUPPORTED_PERCENTILES}. */
  public double at(double percentile) {
    if (percentile == 50) {
      return p50;
    } else if (percentile == 90) {
      return p90;
    } else if (percentile == 95) {
      return p95;
    } else if (percentile == 99) {
      return p99;
    }
    throw new IllegalArgumentException(
        "percentile must be one of 50, 90, 95, 99, was " + percentile);
  }

  public static boolean isSupported(double percentile) {
    for (double p : SUPPORTED_PERCENTILES) {
      if (p == percentile) {
        return true;
      }
    }
    return false;
  }

  /** Errors over requests; 0 when no request was sent. */
  public double errorRate() {
    return count == 0 ? 0 : (double) errors / count;
  }
}
