package dev.isolato.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.isolato.config.IsolatoProperties;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.function.LongSupplier;

/**
 * Authorization of cluster identities: a SubjectAccessReview of the call's {@link Permission}
 * against the cluster's RBAC, cached (bounded, expiring) per user and permission. A call on a named
 * object is first checked without the name (a grant on all objects covers each one), so a
 * provider's identity costs one review per verb and resource, not one per tenant. Reviews a user
 * makes beyond the cache draw from that user's own token bucket (429 beyond it), so requests for
 * ever new names cannot flood the API server.
 */
final class AccessReviews {
  private record Key(Caller.ClusterUser user, Permission permission) {}

  private final KubernetesClient client;
  private final IsolatoProperties.Api settings;
  private final LongSupplier nanoTime;
  private final Cache<Key, AccessDecision> decisions;
  private final Cache<String, TokenBucket> buckets;

  AccessReviews(KubernetesClient client, IsolatoProperties.Api settings, LongSupplier nanoTime) {
    this.client = client;
    this.settings = settings;
    this.nanoTime = nanoTime;
    this.decisions =
        Caffeine.newBuilder()
            .maximumSize(settings.tokenCacheSize())
            .expireAfterWrite(settings.tokenCacheTtl())
            .executor(Runnable::run)
            .build();
    this.buckets =
        Caffeine.newBuilder()
            .maximumSize(settings.tokenCacheSize())
            .expireAfterAccess(settings.tokenCacheTtl())
            .executor(Runnable::run)
            .build();
  }

  AccessDecision check(Caller.ClusterUser user, Permission p) {
    if (p.name() != null && cached(user, p.named(null)).isGranted()) {
      return AccessDecision.granted(p);
    }
    return cached(user, p);
  }

  private AccessDecision cached(Caller.ClusterUser user, Permission p) {
    return decisions.get(new Key(user, p), k -> review(user, p));
  }

  private AccessDecision review(Caller.ClusterUser user, Permission p) {
    if (!buckets
        .get(
            user.name(),
            n -> new TokenBucket(settings.reviewBurst(), settings.reviewsPerSecond(), nanoTime))
        .tryTake()) {
      throw AuthExceptions.accessReviewsThrottled(
          "too many permission checks for "
              + user.name()
              + ": at most "
              + settings.reviewsPerSecond()
              + " per second beyond what was checked in the last "
              + settings.tokenCacheTtl().toSeconds()
              + " s; retry in a second");
    }
    SubjectAccessReview r;
    try {
      r =
          client
              .resource(
                  new SubjectAccessReviewBuilder()
                      .withNewSpec()
                      .withUser(user.name())
                      .withUid(user.uid())
                      .withGroups(user.groups())
                      .withExtra(user.extra())
                      .withNewResourceAttributes()
                      .withGroup(Permission.GROUP)
                      .withResource(p.resource())
                      .withSubresource(p.subresource())
                      .withVerb(p.verb())
                      .withName(p.name())
                      .withNamespace(p.namespace())
                      .endResourceAttributes()
                      .endSpec()
                      .build())
              .create();
    } catch (KubernetesClientException e) {
      throw AuthExceptions.accessReviewUnavailable(
          "cannot check the permission with the cluster's SubjectAccessReview: "
              + (e.getCode() <= 0 ? "the API server is unreachable" : "HTTP " + e.getCode()),
          e);
    }
    var s = r.getStatus();
    if (s != null && Boolean.TRUE.equals(s.getAllowed()) && !Boolean.TRUE.equals(s.getDenied())) {
      return AccessDecision.granted(p);
    }
    return AccessDecision.denied(
        p,
        "RBAC does not allow it"
            + (s == null || s.getReason() == null || s.getReason().isBlank()
                ? ""
                : " (" + s.getReason() + ")"));
  }
}
