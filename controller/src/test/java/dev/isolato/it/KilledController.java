package dev.isolato.it;

import dev.isolato.config.IsolatoProperties;
import dev.isolato.config.OperatorLifecycle;
import dev.isolato.profiler.TenantProfilerLoop;
import dev.isolato.scaling.Autoscaler;
import dev.isolato.scaling.DirectScaler;
import dev.isolato.slo.CapacityPlanner;
import dev.isolato.tenancy.TablePusher;
import dev.isolato.tenancy.TenancyMetrics;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/**
 * A controller instance that dies at a chosen request: that request and every later one never reach
 * the API server (they go to a closed port), as when the process is killed just before sending it.
 * So a test stops a deletion at an exact step, not at whatever point a timer hits. {@link #close()}
 * then stops what is left of it (without a lease hand-over: its lease expires).
 */
final class KilledController implements AutoCloseable {
  private static final URI NOWHERE = URI.create("http://127.0.0.1:1/");

  private final AtomicReference<String> killedAt = new AtomicReference<>();
  private final KubernetesClient client;
  private final OperatorLifecycle lifecycle;

  KilledController(
      Predicate<HttpRequest> killPoint,
      IsolatoProperties props,
      CapacityPlanner planner,
      TenancyMetrics metrics) {
    Config config = RealApiServer.config();
    config.setRequestRetryBackoffLimit(0);
    Interceptor kill =
        new Interceptor() {
          @Override
          public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            if (killedAt.get() == null && killPoint.test(request)) {
              killedAt.compareAndSet(null, request.method() + " " + request.uri().getPath());
            }
            if (killedAt.get() != null) {
              builder.uri(NOWHERE);
            }
          }
        };
    client =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("killed", kill))
            .build();
    lifecycle =
        new OperatorLifecycle(
            client,
            props,
            planner,
            new TablePusher(),
            metrics,
            new SimpleMeterRegistry(),
            "",
            Autoscaler.hpaOnly(),
            new DirectScaler(
                client,
                false,
                Duration.ofSeconds(1),
                Duration.ofMinutes(2),
                new SimpleMeterRegistry()),
            new StaticListableBeanFactory().getBeanProvider(TenantProfilerLoop.class),
            new StaticListableBeanFactory()
                .getBeanProvider(dev.isolato.verification.VerificationLoop.class),
            new dev.isolato.incontext.InContextCalibrations(
                client,
                dev.isolato.slo.SloEngine.withDefaults(),
                new dev.isolato.incontext.CalibrationProperties(
                    null, null, false, null, null, null, null),
                props.namespace()));
    lifecycle.start();
  }

  /** Any write (not a read or a watch) to the object at a path ending in {@code pathSuffix}. */
  static Predicate<HttpRequest> writeTo(String pathSuffix) {
    return r -> !"GET".equals(r.method()) && r.uri().getPath().endsWith(pathSuffix);
  }

  /** The request it died at, or null while it lives. */
  String killedAt() {
    return killedAt.get();
  }

  @Override
  public void close() {
    lifecycle.stop();
    client.close();
  }
}
