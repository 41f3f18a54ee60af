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
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/** The Kubernetes client and the pieces the reconciler and the API share. */
@Configuration
@EnableConfigurationProperties(IsolatoProperties.class)
public class KubernetesConfig {
  /**
   * The client of the REST API's handlers: each API-server call is bounded (the request timeout
   * includes connecting), so that a request answers 503 within 5 s when the API server is down or
   * hangs instead of waiting on fabric8's defaults (10 retries with exponential back-off, which
   * also wait out a 429). No retry: the REST caller retries on 503 (Retry-After). The reconciler
   * and the bootstrap keep the patient default client (JOSDK retries, watches reconnect).
   */
  public static final String API_CLIENT = "apiKubernetesClient";

  static final int CONNECT_TIMEOUT_MS = 2_000;
  static final int REQUEST_TIMEOUT_MS = 3_500;

  @Bean
  ApiCallCounter apiCallCounter(MeterRegistry registry) {
    return new ApiCallCounter(registry);
  }

  @Bean(destroyMethod = "close")
  @Primary
  KubernetesClient kubernetesClient(IsolatoProperties props, ApiCallCounter counter) {
    return client(config(props), counter);
  }

  @Bean(name = API_CLIENT, destroyMethod = "close")
  KubernetesClient apiKubernetesClient(IsolatoProperties props, ApiCallCounter counter) {
    return client(bounded(config(props)), counter);
  }

  private static KubernetesClient client(Config config, ApiCallCounter counter) {
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor(ApiCallCounter.NAME, counter))
        .build();
  }

  private static Config config(IsolatoProperties props) {
    return props.kubeconfig() == null || props.kubeconfig().isBlank()
        ? Config.autoConfigure(null)
        : fromFile(Path.of(props.kubeconfig()));
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
  TablePusher tablePusher() {
    return new TablePusher();
  }

  /** {@code config} with the REST handlers' timeouts and no retry. */
  public static Config bounded(Config config) {
    config.setConnectionTimeout(CONNECT_TIMEOUT_MS);
    config.setRequestTimeout(REQUEST_TIMEOUT_MS);
    config.setRequestRetryBackoffLimit(0);
    return config;
  }

  static final String KUBECONFIG_ACTION =
      "Point ISOLATO_KUBECONFIG (isolato.kubeconfig) at a readable kubeconfig file,"
          + " or leave it empty to use KUBECONFIG, ~/.kube/config or the pod's service account.";

  /**
   * The client configuration of a kubeconfig file; a missing, unreadable or malformed file is an
   * {@link InvalidSettingException}.
   */
  static Config fromFile(Path kubeconfig) {
    String text;
    try {
      text = Files.readString(kubeconfig);
    } catch (IOException e) {
      String why =
          e instanceof NoSuchFileException
              ? "no such file"
              : e instanceof AccessDeniedException ? "permission denied" : e.toString();
      throw new InvalidSettingException(
          "cannot read the kubeconfig " + kubeconfig + " (ISOLATO_KUBECONFIG): " + why,
          KUBECONFIG_ACTION,
          e);
    }
    try {
      Config config = Config.fromKubeconfig(null, text, kubeconfig.toString());
      if (config.getCurrentContext() == null) { // fabric8 would fall back to in-cluster defaults
        throw new IllegalArgumentException("it has no current context");
      }
      return config;
    } catch (RuntimeException e) {
      Throwable root = e; // fabric8 wraps the parser's reason in "An error has occurred."
      while (root.getCause() != null) {
        root = root.getCause();
      }
      String why =
          root.getMessage() == null
              ? root.toString()
              : root.getMessage().strip().replaceAll("\\s*\\n\\s*", " ");
      throw new InvalidSettingException(
          "the kubeconfig " + kubeconfig + " (ISOLATO_KUBECONFIG) is not usable: " + why,
          KUBECONFIG_ACTION,
          e);
    }
  }
}
