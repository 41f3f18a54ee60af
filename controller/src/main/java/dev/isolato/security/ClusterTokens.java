package dev.isolato.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.isolato.config.IsolatoProperties;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Cluster identities: the API server's TokenReview, for the configured audience. Verdicts (valid or
 * not) are kept in a bounded, expiring cache keyed by the token's hash; reviews of tokens not in it
 * draw from one global token bucket, so a flood of random tokens neither grows memory nor reaches
 * the API server more than the bucket allows (429 beyond it).
 */
final class ClusterTokens {
  private final KubernetesClient client;
  private final IsolatoProperties.Api settings;
  private final Cache<String, Optional<Caller.ClusterUser>> verdicts;
  private final TokenBucket reviews;
  private final MeterRegistry meters;

  ClusterTokens(
      KubernetesClient client,
      IsolatoProperties.Api settings,
      MeterRegistry meters,
      LongSupplier nanoTime) {
    this.client = client;
    this.settings = settings;
    this.meters = meters;
    this.verdicts =
        Caffeine.newBuilder()
            .maximumSize(settings.tokenCacheSize())
            .expireAfterWrite(settings.tokenCacheTtl())
            .executor(Runnable::run)
            .build();
    this.reviews = new TokenBucket(settings.reviewBurst(), settings.reviewsPerSecond(), nanoTime);
  }

  /**
   * The cluster user the token belongs to, or empty when the cluster does not accept it for our
   * audience.
   */
  Optional<Caller.ClusterUser> authenticate(String token) {
    if (!settings.tokenReview()) {
      return Optional.empty();
    }
    return verdicts.get(StaticTokens.hash(token), hash -> review(token));
  }

  private Optional<Caller.ClusterUser> review(String token) {
    if (!reviews.tryTake()) {
      count("throttled");
      throw AuthExceptions.reviewsThrottled(
          "too many unknown bearer tokens: at most "
              + settings.reviewsPerSecond()
              + " per second are checked with the cluster; retry in a second");
    }
    String audience = settings.tokenAudience();
    TokenReview r;
    try {
      r =
          client
              .resource(
                  new TokenReviewBuilder()
                      .withNewSpec()
                      .withToken(token)
                      .withAudiences(audience.isEmpty() ? List.of() : List.of(audience))
                      .endSpec()
                      .build())
              .create();
    } catch (KubernetesClientException e) {
      count("error");
      throw AuthExceptions.identityUnavailable(
          "cannot check the bearer token with the cluster's TokenReview: "
              + (e.getCode() <= 0 ? "the API server is unreachable" : "HTTP " + e.getCode()),
          e);
    }
    var status = r.getStatus();
    // An empty status.audiences would mean "valid for the API server itself", not for us.
    boolean valid =
        status != null
            && Boolean.TRUE.equals(status.getAuthenticated())
            && status.getUser() != null
            && (audience.isEmpty()
                || (status.getAudiences() != null && status.getAudiences().contains(audience)));
    count(valid ? "authenticated" : "rejected");
    if (!valid) {
      return Optional.empty();
    }
    UserInfo u = status.getUser();
    return Optional.of(
        new Caller.ClusterUser(u.getUsername(), u.getUid(), u.getGroups(), u.getExtra()));
  }

  private void count(String outcome) {
    Counter.builder("isolato.auth.token.reviews")
        .description("Unknown bearer tokens checked with TokenReview, by outcome")
        .tag("outcome", outcome)
        .register(meters)
        .increment();
  }

  /** Entries held now (after pending evictions). */
  long cachedVerdicts() {
    verdicts.cleanUp();
    return verdicts.estimatedSize();
  }

  double reviewsAvailable() {
    return reviews.available();
  }
}
