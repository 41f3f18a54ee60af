package dev.isolato.profiler;

import dev.isolato.config.IsolatoProperties;
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
 * (OperatorLifecycle).
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
