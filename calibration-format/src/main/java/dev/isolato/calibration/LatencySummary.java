package dev.isolato.calibration;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import java.util.List;

/**
 * Request count, error count and latency percentiles (milliseconds) of one calibration step, for
 * all tenants together or for one tenant.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LatencySummary(
    @Required @Min(0) long count,
    @Required @Min(0) long errors,
    @Required @Min(0) double p50,
    @Required @Min(0) double p90,
    @Required @Min(0) double p95,
    @Required @Min(0) double p99,
    @Required @Min(0) double max) {

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
