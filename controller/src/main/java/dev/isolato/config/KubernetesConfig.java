package dev.isolato.config;

import dev.isolato.slo.CapacityPlanner;
import dev.isolato.slo.SloEngine;
import dev.isolato.tenancy.TablePusher;
import dev.isolato.tenancy.TenancyMetrics;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The Kubernetes client and the pieces the reconciler and the API share. */
@Configuration
@EnableConfigurationProperties(IsolatoProperties.class)
public class KubernetesConfig {

  @Bean
  ApiCallCounter apiCallCounter(MeterRegistry registry) {
    return new ApiCallCounter(registry);
  }

  @Bean(destroyMethod = "close")
  KubernetesClient kubernetesClient(IsolatoProperties props, ApiCallCounter counter) {
    Config config = props.kubeconfig() == null || props.kubeconfig().isBlank()
        ? Config.autoConfigure(null) : fromFile(Path.of(props.kubeconfig()));
    return new KubernetesClientBuilder().withConfig(config)
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor(ApiCallCounter.NAME, counter))
        .build();
  }

  /** The SLO engine (stateless): calibration ingest and fit, plans, simulations. */
  @Bean
  SloEngine sloEngine() {
    return SloEngine.withDefaults();
  }

  /** The model-based planner with the flagged linear fallback, for the reconciler. */
  @Bean
  CapacityPlanner capacityPlanner(SloEngine engine) {
    return engine.planner();
  }

  @Bean
  TenancyMetrics tenancyMetrics(MeterRegistry registry) {
    return new TenancyMetrics(registry);
  }

  @Bean
  TablePusher tablePusher(KubernetesClient client) {
    return new TablePusher(client);
  }

  private static Config fromFile(Path kubeconfig) {
    try {
      return Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read kubeconfig " + kubeconfig, e);
    }
  }
}
