package dev.isolato.config;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code isolato.*} (environment: ISOLATO_NAMESPACE, ISOLATO_API_TOKEN_FILE, …).
 *
 * @param namespace where Tenants, the leader lease and the controller's secrets live
 * @param kubeconfig kubeconfig file; empty = fabric8's usual lookup (KUBECONFIG, ~/.kube/config, in-cluster)
 * @param installCrds apply the CRDs at startup (server-side apply)
 * @param reconcileThreads concurrent class reconciles
 * @param api authentication and authorization of the REST API
 * @param leaderElection lease settings so that two replicas can run
 */
@ConfigurationProperties("isolato")
public record IsolatoProperties(
    String namespace,
    String kubeconfig,
    boolean installCrds,
    int reconcileThreads,
    Api api,
    LeaderElection leaderElection) {

  public IsolatoProperties {
    namespace = namespace == null || namespace.isBlank() ? "isolato-system" : namespace;
    reconcileThreads = reconcileThreads <= 0 ? 4 : reconcileThreads;
    api = api == null ? Api.defaults() : api;
    leaderElection = leaderElection == null ? new LeaderElection(true, null, null, null, null) : leaderElection;
  }

  /**
   * Who may call the REST API (docs/security.md).
   *
   * @param tokenFile file of provider-admin bearer tokens, one per line (`make run`)
   * @param tokensSecret Secret in {@code namespace} whose every value is a provider-admin token
   * @param tenantTokenFile file of tenant tokens, lines {@code <token> <tenantId>}
   * @param tenantTokensSecret Secret in {@code namespace}: key = tenant id, value = that tenant's token
   * @param tokenReview check other tokens with the cluster's TokenReview, then authorize with SubjectAccessReviews
   * @param tokenAudience audience a cluster token must carry ({@code kubectl create token --audience isolato});
   *     blank = the API server's own audience (any pod's automounted token would then be accepted)
   * @param tokenCacheTtl how long a review verdict is reused and static tokens are re-read
   * @param tokenCacheSize most review verdicts kept (tokens and access decisions each)
   * @param reviewBurst TokenReviews of unknown tokens that may be made at once (globally), and
   *     SubjectAccessReviews per cluster user
   * @param reviewsPerSecond the rate at which those refill; beyond it calls answer 429
   */
  public record Api(String tokenFile, String tokensSecret, String tenantTokenFile, String tenantTokensSecret,
      boolean tokenReview, String tokenAudience, Duration tokenCacheTtl, int tokenCacheSize, int reviewBurst,
      double reviewsPerSecond) {
    public Api {
      tokensSecret = tokensSecret == null || tokensSecret.isBlank() ? "isolato-api-tokens" : tokensSecret;
      tenantTokensSecret = tenantTokensSecret == null || tenantTokensSecret.isBlank() ? "isolato-tenant-tokens" : tenantTokensSecret;
      tokenAudience = tokenAudience == null ? "isolato" : tokenAudience.trim();
      tokenCacheTtl = tokenCacheTtl == null ? Duration.ofSeconds(60) : tokenCacheTtl;
      tokenCacheSize = tokenCacheSize <= 0 ? 10_000 : tokenCacheSize;
      reviewBurst = reviewBurst <= 0 ? 20 : reviewBurst;
      reviewsPerSecond = reviewsPerSecond <= 0 ? 10 : reviewsPerSecond;
    }

    /** Defaults: TokenReview on, audience "isolato". */
    public static Api defaults() {
      return new Api(null, null, null, null, true, null, null, 0, 0, 0);
    }
  }

  /** Lease timings; short defaults so a restarted controller takes over quickly. */
  public record LeaderElection(boolean enabled, String leaseName, Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
    public LeaderElection {
      leaseName = leaseName == null || leaseName.isBlank() ? "isolato-controller" : leaseName;
      leaseDuration = leaseDuration == null ? Duration.ofSeconds(10) : leaseDuration;
      renewDeadline = renewDeadline == null ? Duration.ofSeconds(8) : renewDeadline;
      retryPeriod = retryPeriod == null ? Duration.ofSeconds(2) : retryPeriod;
    }
  }
}
