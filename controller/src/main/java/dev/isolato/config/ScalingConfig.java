package dev.isolato.config;

import dev.isolato.scaling.Autoscaler;
import dev.isolato.scaling.DirectScaler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The pools' autoscaler choice and the direct scaling path (started by the leader). */
@Configuration
@EnableConfigurationProperties(ScalingProperties.class)
public class ScalingConfig {
  @Bean
  Autoscaler autoscaler(KubernetesClient client, ScalingProperties props) {
    return new Autoscaler(client, props.autoscaler(), props.keda().settings());
  }

  @Bean(destroyMethod = "close")
  DirectScaler directScaler(
      KubernetesClient client, ScalingProperties props, MeterRegistry registry) {
    return new DirectScaler(
        client,
        props.direct().enabled(),
        props.direct().interval(),
        props.direct().hold(),
        registry);
  }
}
