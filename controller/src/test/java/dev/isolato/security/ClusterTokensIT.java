package dev.isolato.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isolato.DocClaim;
import dev.isolato.config.ApiCallCounter;
import dev.isolato.config.IsolatoProperties;
import dev.isolato.it.RealApiServer;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** TokenReviews against a real kube-apiserver: bounded cache, rate-limited reviews, audiences. */
class ClusterTokensIT {
  static Config config;
  static KubernetesClient admin;

  @BeforeAll
  static void connect() throws Exception {
    Path kc = RealApiServer.kubeconfig();
    config = Config.fromKubeconfig(null, Files.readString(kc), kc.toString());
    admin = new KubernetesClientBuilder().withConfig(config).build();
  }

  @AfterAll
  static void close() {
    admin.close();
  }

  static IsolatoProperties.Api settings(int cacheSize, int burst, double perSecond) {
    return new IsolatoProperties.Api(
        null,
        null,
        null,
        null,
        true,
        "isolato",
        Duration.ofMinutes(5),
        cacheSize,
        burst,
        perSecond);
  }

  @Test
  void aFloodOfRandomTokensStaysWithinTheCacheBoundAndTheReviewBucket() throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    ApiCallCounter calls = new ApiCallCounter(meters);
    int cacheSize = 100;
    int burst = 300;
    double perSecond = 5;
    try (KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientBuilderConsumer(
                b -> b.addOrReplaceInterceptor(ApiCallCounter.NAME, calls))
            .build()) {
      ClusterTokens tokens =
          new ClusterTokens(
              client, settings(cacheSize, burst, perSecond), meters, System::nanoTime);
      AtomicInteger rejected = new AtomicInteger();
      AtomicInteger throttled = new AtomicInteger();
      long start = System.nanoTime();
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        List<Future<?>> all = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
          all.add(
              pool.submit(
                  () -> {
                    try {
                      assertThat(tokens.authenticate(UUID.randomUUID().toString())).isEmpty();
                      rejected.incrementAndGet();
                    } catch (AuthExceptions.Unchecked e) {
                      assertThat(e.status().value()).isEqualTo(429);
                      throttled.incrementAndGet();
                    }
                  }));
        }
        for (Future<?> f : all) {
          f.get();
        }
      } finally {
        pool.shutdown();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long reviews = calls.requests();
      assertThat(reviews)
          .as("TokenReview calls in %.1f s", seconds)
          .isEqualTo(rejected.get())
          .isLessThanOrEqualTo((long) Math.ceil(burst + perSecond * seconds) + 1)
          .isGreaterThan(cacheSize);
      assertThat(throttled.get()).isEqualTo(5000 - rejected.get());
      assertThat(tokens.cachedVerdicts()).as("cache entries").isLessThanOrEqualTo(cacheSize);
      assertThat(meters.counter("isolato.auth.token.reviews", "outcome", "throttled").count())
          .isEqualTo(throttled.get());
    }
  }

  @Test
  void aKnownVerdictCostsNoSecondReviewAndOnlyTheIsolatoAudienceIsAccepted() throws Exception {
    admin
        .resource(
            new ServiceAccountBuilder()
                .withNewMetadata()
                .withName("ct-client")
                .withNamespace("default")
                .endMetadata()
                .build())
        .serverSideApply();
    var sa = admin.serviceAccounts().inNamespace("default").withName("ct-client");
    String isolato =
        sa.tokenRequest(
                new TokenRequestBuilder().withNewSpec().withAudiences("isolato").endSpec().build())
            .getStatus()
            .getToken();
    String apiServer =
        sa.tokenRequest(new TokenRequestBuilder().withNewSpec().endSpec().build())
            .getStatus()
            .getToken();
    String other =
        sa.tokenRequest(
                new TokenRequestBuilder().withNewSpec().withAudiences("vault").endSpec().build())
            .getStatus()
            .getToken();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    ClusterTokens tokens = new ClusterTokens(admin, settings(10, 10, 1), meters, System::nanoTime);

    assertThat(tokens.authenticate(isolato))
        .hasValueSatisfying(
            u -> {
              assertThat(u.name()).isEqualTo("system:serviceaccount:default:ct-client");
              assertThat(u.groups())
                  .contains("system:serviceaccounts", "system:serviceaccounts:default");
              assertThat(u.uid()).isNotBlank();
            });
    assertThat(tokens.authenticate(isolato)).isPresent();
    assertThat(tokens.authenticate(apiServer)).as("the API server's own audience").isEmpty();
    assertThat(tokens.authenticate(other)).as("another audience").isEmpty();
    assertThat(meters.counter("isolato.auth.token.reviews", "outcome", "authenticated").count())
        .as("cached")
        .isEqualTo(1);
    assertThat(meters.counter("isolato.auth.token.reviews", "outcome", "rejected").count())
        .isEqualTo(2);
  }

  @Test
  @DocClaim(
      "docs/security.md: If the API server cannot be asked, callers get 503 problem+json, not 401.")
  @DocClaim("docs/api.md: also when a token or permission cannot be checked")
  void anUnreachableApiServerIsReportedNotTakenForAnInvalidToken() {
    Config down =
        new ConfigBuilder(config)
            .withMasterUrl("https://127.0.0.1:1")
            .withRequestRetryBackoffLimit(0)
            .withConnectionTimeout(1000)
            .withRequestTimeout(1000)
            .build();
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(down).build()) {
      ClusterTokens tokens =
          new ClusterTokens(
              client, settings(10, 10, 1), new SimpleMeterRegistry(), System::nanoTime);
      assertThatThrownBy(() -> tokens.authenticate("whatever"))
          .isInstanceOfSatisfying(
              AuthExceptions.Unchecked.class, e -> assertThat(e.status().value()).isEqualTo(503))
          .hasMessageContaining("unreachable");
    }
  }
}
