package dev.isolato.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;

/**
 * Authorization of cluster identities: a SubjectAccessReview of the call's {@link Permission}
 * against the cluster's RBAC, cached (bounded, expiring) per user and permission.
 */
final class AccessReviews {
  private record Key(Caller.ClusterUser user, Permission permission) {}

  private final KubernetesClient client;
  private final Cache<Key, AccessDecision> decisions;

  AccessReviews(KubernetesClient client, int size, Duration ttl) {
    this.client = client;
    this.decisions = Caffeine.newBuilder().maximumSize(size).expireAfterWrite(ttl).executor(Runnable::run).build();
  }

  AccessDecision check(Caller.ClusterUser user, Permission p) {
    return decisions.get(new Key(user, p), k -> review(user, p));
  }

  private AccessDecision review(Caller.ClusterUser user, Permission p) {
    SubjectAccessReview r;
    try {
      r = client.resource(new SubjectAccessReviewBuilder().withNewSpec()
          .withUser(user.name()).withUid(user.uid()).withGroups(user.groups()).withExtra(user.extra())
          .withNewResourceAttributes().withGroup(Permission.GROUP).withResource(p.resource()).withSubresource(p.subresource())
          .withVerb(p.verb()).withName(p.name()).withNamespace(p.namespace()).endResourceAttributes()
          .endSpec().build()).create();
    } catch (KubernetesClientException e) {
      throw new AuthExceptions.AccessReviewUnavailable("cannot check the permission with the cluster's SubjectAccessReview: "
          + (e.getCode() <= 0 ? "the API server is unreachable" : "HTTP " + e.getCode()), e);
    }
    var s = r.getStatus();
    if (s != null && Boolean.TRUE.equals(s.getAllowed()) && !Boolean.TRUE.equals(s.getDenied())) {
      return AccessDecision.granted(p);
    }
    return AccessDecision.denied(p, "RBAC does not allow it" + (s == null || s.getReason() == null || s.getReason().isBlank()
        ? "" : " (" + s.getReason() + ")"));
  }
}
