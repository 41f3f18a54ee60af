package dev.isolato.config;

import dev.isolato.capacity.VerificationPolicy;
import dev.isolato.profiler.ProfilerProperties;
import dev.isolato.profiler.PrometheusTenantRates;
import dev.isolato.verification.PrometheusPoolWindows;
import dev.isolato.verification.VerificationLoop;
import dev.isolato.verification.VerificationProperties;
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
 * The capacity verification loop, when a Prometheus URL is configured (the profiler's); the leader
 * starts it (OperatorLifecycle). Decided when the bean is made, not by a {@code @Conditional}, for
 * the jar's Spring AOT bean definitions (see ProfilerConfig).
 */
@Configuration
@EnableConfigurationProperties({VerificationProperties.class, ProfilerProperties.class})
public class VerificationConfig {

  /** Null (no bean) without a Prometheus URL or with isolato.verification.enabled false. */
  @Bean
  @Nullable
  VerificationLoop verificationLoop(
      KubernetesClient client,
      ProfilerProperties profiler,
      VerificationProperties props,
      MeterRegistry registry) {
    if (!profiler.enabled() || !props.enabled()) {
      return null;
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    return new VerificationLoop(
        client,
        new PrometheusPoolWindows(
            new PrometheusTenantRates(URI.create(profiler.prometheusUrl()), http)),
        VerificationPolicy.defaults(),
        props.interval(),
        props.window(),
        registry);
  }
}
