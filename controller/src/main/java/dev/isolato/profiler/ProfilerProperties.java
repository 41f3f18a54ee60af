package dev.isolato.profiler;

import dev.isolato.slo.TenantProfiler;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code isolato.profiler.*} (docs/operations.md, "Tenant profiler").
 *
 * @param prometheusUrl Prometheus with Isolato's recording rules (ISOLATO_PROMETHEUS_URL); empty:
 *     no profiling
 * @param interval time between profiling passes
 * @param window the offered rate is averaged over it; a tenant served for less is unknown
 * @param aggressiveAbove offered / committed above which a tenant is aggressive
 * @param passiveBelow offered / committed below which a tenant is passive
 */
@ConfigurationProperties("isolato.profiler")
public record ProfilerProperties(
    String prometheusUrl,
    Duration interval,
    Duration window,
    Double aggressiveAbove,
    Double passiveBelow) {

  public ProfilerProperties {
    prometheusUrl = prometheusUrl == null ? "" : prometheusUrl.strip();
    interval = interval == null ? Duration.ofSeconds(30) : interval;
    window = window == null ? Duration.ofMinutes(10) : window;
    TenantProfiler.Policy d = TenantProfiler.Policy.defaults();
    aggressiveAbove = aggressiveAbove == null ? d.aggressiveAbove() : aggressiveAbove;
    passiveBelow = passiveBelow == null ? d.passiveBelow() : passiveBelow;
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException(
          "isolato.profiler.interval must be positive, was " + interval);
    }
  }

  public boolean enabled() {
    return !prometheusUrl.isEmpty();
  }

  /** The classification policy (validated by {@link TenantProfiler.Policy}). */
  public TenantProfiler.Policy policy() {
    return new TenantProfiler.Policy(aggressiveAbove, passiveBelow, window.toSeconds());
  }
}
