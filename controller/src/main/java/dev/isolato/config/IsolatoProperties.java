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
 * @param api authentication of the REST API
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
    api = api == null ? new Api(null, null, true, null) : api;
    leaderElection = leaderElection == null ? new LeaderElection(true, null, null, null, null) : leaderElection;
  }

  /**
   * @param tokenFile file with one static bearer token per line (for `make run`)
   * @param tokensSecret Secret in {@code namespace} whose every value is a valid token
   * @param tokenReview check other tokens with the cluster's TokenReview API
   * @param tokenCacheTtl how long a TokenReview verdict is reused
   */
  public record Api(String tokenFile, String tokensSecret, boolean tokenReview, Duration tokenCacheTtl) {
    public Api {
      tokensSecret = tokensSecret == null || tokensSecret.isBlank() ? "isolato-api-tokens" : tokensSecret;
      tokenCacheTtl = tokenCacheTtl == null ? Duration.ofSeconds(60) : tokenCacheTtl;
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
