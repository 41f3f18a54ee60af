package dev.isolato.config;

import dev.isolato.profiler.ProfilerProperties;
import dev.isolato.profiler.PrometheusTenantRates;
import dev.isolato.profiler.TenantProfilerLoop;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The tenant profiler, when a Prometheus URL is configured; the leader starts it
 * (OperatorLifecycle). Wired here, beside the settings it reads, so that profiler/ needs nothing of
 * config/ (config/ uses the profiler; the other way round made a package cycle, issue 35).
 */
@Configuration
@EnableConfigurationProperties(ProfilerProperties.class)
public class ProfilerConfig {

  @Bean
  @ConditionalOnExpression("'${isolato.profiler.prometheus-url:}'.trim() != ''")
  TenantProfilerLoop tenantProfilerLoop(
      KubernetesClient client,
      IsolatoProperties isolato,
      ProfilerProperties props,
      MeterRegistry registry) {
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
