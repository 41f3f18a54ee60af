package dev.isolato.config;

import dev.isolato.incontext.CalibrationProperties;
import dev.isolato.incontext.InContextCalibrations;
import dev.isolato.slo.SloEngine;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * In-context calibrations: the API starts them on any replica, the leader advances them
 * (OperatorLifecycle). The generator Job runs in the controller's namespace.
 */
@Configuration
@EnableConfigurationProperties(CalibrationProperties.class)
public class CalibrationConfig {
  @Bean
  InContextCalibrations inContextCalibrations(
      KubernetesClient client,
      SloEngine engine,
      CalibrationProperties props,
      IsolatoProperties isolato) {
    return new InContextCalibrations(client, engine, props, isolato.namespace());
  }
}
