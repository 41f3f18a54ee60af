package dev.isolato.config;

import dev.isolato.profiler.ProfilerProperties;
import dev.isolato.profiler.PrometheusTenantRates;
import dev.isolato.profiler.TenantProfilerLoop;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.lang.Nullable;

/**
 * The tenant profiler, when a Prometheus URL is configured; the leader starts it
 * (OperatorLifecycle). Wired here, beside the settings it reads, so that profiler/ needs nothing of
 * config/ (config/ uses the profiler; the other way round made a package cycle, issue 35). Decided
 * when the bean is made, not by a {@code @Conditional}: the image runs the jar's Spring AOT bean
 * definitions, which freeze conditions as they were at build time (no Prometheus URL).
 */
@Configuration
@EnableConfigurationProperties(ProfilerProperties.class)
public class ProfilerConfig {

  /** Null (no bean: OperatorLifecycle's provider is empty) without a Prometheus URL. */
  @Bean
  @Nullable
  TenantProfilerLoop tenantProfilerLoop(
      KubernetesClient client,
      IsolatoProperties isolato,
      ProfilerProperties props,
      MeterRegistry registry) {
    if (!props.enabled()) {
      return null;
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    return new TenantProfilerLoop(
        client,
        new PrometheusTenantRates(URI.create(props.prometheusUrl()), http),
        props.policy(),
        props.interval(),
        isolato.namespace(),
        registry);
  }
}
