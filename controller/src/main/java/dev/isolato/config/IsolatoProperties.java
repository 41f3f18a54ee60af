package dev.isolato.config;

import dev.isolato.tenancy.ImagePolicy;
import dev.isolato.tenancy.NetworkPeers;
import dev.isolato.tenancy.Workload;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code isolato.*} (environment: ISOLATO_NAMESPACE, ISOLATO_API_TOKEN_FILE, …).
 *
 * @param namespace where Tenants, the leader lease and the controller's secrets live
 * @param kubeconfig kubeconfig file; empty = fabric8's usual lookup (KUBECONFIG, ~/.kube/config,
 *     in-cluster)
 * @param installCrds apply the CRDs at startup (server-side apply)
 * @param reconcileThreads concurrent class reconciles
 * @param poolApplyThreads pool reconciles (a class's shared pool and its dedicated tenants' pools)
 *     that may run at once, on top of the class reconciles
 * @param api authentication and authorization of the REST API
 * @param leaderElection lease settings so that two replicas can run
 * @param pools what pools may run and who may reach them
 */
@ConfigurationProperties("isolato")
public record IsolatoProperties(
    String namespace,
    String kubeconfig,
    boolean installCrds,
    int reconcileThreads,
    int poolApplyThreads,
    Api api,
    LeaderElection leaderElection,
    Pools pools) {

  /** Pool reconciles at once unless configured (isolato.pool-apply-threads). */
  public static final int DEFAULT_POOL_APPLIERS = 8;

  public IsolatoProperties {
    namespace = namespace == null || namespace.isBlank() ? "isolato-system" : namespace;
    reconcileThreads = reconcileThreads <= 0 ? 4 : reconcileThreads;
    poolApplyThreads = poolApplyThreads <= 0 ? DEFAULT_POOL_APPLIERS : poolApplyThreads;
    api = api == null ? Api.defaults() : api;
    leaderElection =
        leaderElection == null ? new LeaderElection(true, null, null, null, null) : leaderElection;
    pools = pools == null ? new Pools(null, null, null, null, null, null, null, null) : pools;
  }

  /**
   * The security settings: which images pools run and who may reach them.
   *
   * @param imageAllowlist images a class may run: exact references or prefixes ending in *
   *     (default: the saas-bench image and the gate sidecar's, which every pool pod runs)
   * @param gateImage the isolato-gate sidecar's image, which every pool pod runs (default {@link
   *     Workload#GATE_IMAGE}); like the class's images, it must be in the allowlist
   * @param ingressNamespaceSelector {@code key=value,...} labels of the namespaces whose pods may
   *     reach a pool's Service port (the provider's ingress); empty = none
   * @param ingressPodSelector {@code key=value,...} labels of those pods; empty = any pod there
   * @param ingressCidrs address blocks that may reach a pool's Service port
   * @param controllerCidrs address blocks the controller pushes tables from when it runs outside
   *     the pod network (e.g. a host process)
   * @param controllerNamespace namespace whose pods may push tables (an in-cluster controller's);
   *     default {@code namespace}
   * @param tableCheck how often, at most, the controller reads each ready pool pod's table and
   *     pushes the pool's again to a pod that holds another (default 4 min: every pool gets a pass
   *     at least every 5 min)
   */
  public record Pools(
      List<String> imageAllowlist,
      String ingressNamespaceSelector,
      String ingressPodSelector,
      List<String> ingressCidrs,
      List<String> controllerCidrs,
      String controllerNamespace,
      String gateImage,
      Duration tableCheck) {
    public static final Duration DEFAULT_TABLE_CHECK = Duration.ofMinutes(4);

    public Pools {
      gateImage = gateImage == null || gateImage.isBlank() ? Workload.GATE_IMAGE : gateImage;
      imageAllowlist =
          imageAllowlist == null || imageAllowlist.isEmpty()
              ? List.of(Workload.DEFAULT_IMAGE, gateImage)
              : List.copyOf(imageAllowlist);
      ingressNamespaceSelector =
          ingressNamespaceSelector == null ? "isolato.dev/ingress=true" : ingressNamespaceSelector;
      ingressPodSelector = ingressPodSelector == null ? "" : ingressPodSelector;
      ingressCidrs = ingressCidrs == null ? List.of() : List.copyOf(ingressCidrs);
      controllerCidrs = controllerCidrs == null ? List.of() : List.copyOf(controllerCidrs);
      controllerNamespace = controllerNamespace == null ? "" : controllerNamespace;
      tableCheck =
          tableCheck == null || tableCheck.isNegative() || tableCheck.isZero()
              ? DEFAULT_TABLE_CHECK
              : tableCheck;
    }
  }

  public ImagePolicy imagePolicy() {
    return new ImagePolicy(pools.imageAllowlist(), pools.gateImage());
  }

  public NetworkPeers networkPeers() {
    return new NetworkPeers(
        NetworkPeers.selector(pools.ingressNamespaceSelector()),
        NetworkPeers.selector(pools.ingressPodSelector()),
        pools.ingressCidrs(),
        pools.controllerNamespace().isBlank() ? namespace : pools.controllerNamespace(),
        pools.controllerCidrs());
  }

  /**
   * Who may call the REST API (docs/security.md).
   *
   * @param tokenFile file of provider-admin bearer tokens, one per line (`make run`)
   * @param tokensSecret Secret in {@code namespace} whose every value is a provider-admin token
   * @param tenantTokenFile file of tenant tokens, lines {@code <token> <tenantId>}
   * @param tenantTokensSecret Secret in {@code namespace}: key = tenant id, value = that tenant's
   *     token
   * @param tokenReview check other tokens with the cluster's TokenReview, then authorize with
   *     SubjectAccessReviews
   * @param tokenAudience audience a cluster token must carry ({@code kubectl create token
   *     --audience isolato}); blank = the API server's own audience (any pod's automounted token
   *     would then be accepted)
   * @param tokenCacheTtl how long a review verdict is reused and static tokens are re-read
   * @param tokenCacheSize most review verdicts kept (tokens and access decisions each)
   * @param reviewBurst TokenReviews of unknown tokens that may be made at once (globally), and
   *     SubjectAccessReviews per cluster user
   * @param reviewsPerSecond the rate at which those refill; beyond it calls answer 429
   */
  public record Api(
      String tokenFile,
      String tokensSecret,
      String tenantTokenFile,
      String tenantTokensSecret,
      boolean tokenReview,
      String tokenAudience,
      Duration tokenCacheTtl,
      int tokenCacheSize,
      int reviewBurst,
      double reviewsPerSecond) {
    public Api {
      tokensSecret =
          tokensSecret == null || tokensSecret.isBlank() ? "isolato-api-tokens" : tokensSecret;
      tenantTokensSecret =
          tenantTokensSecret == null || tenantTokensSecret.isBlank()
              ? "isolato-tenant-tokens"
              : tenantTokensSecret;
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
  public record LeaderElection(
      boolean enabled,
      String leaseName,
      Duration leaseDuration,
      Duration renewDeadline,
      Duration retryPeriod) {
    public LeaderElection {
      leaseName = leaseName == null || leaseName.isBlank() ? "isolato-controller" : leaseName;
      leaseDuration = leaseDuration == null ? Duration.ofSeconds(10) : leaseDuration;
      renewDeadline = renewDeadline == null ? Duration.ofSeconds(8) : renewDeadline;
      retryPeriod = retryPeriod == null ? Duration.ofSeconds(2) : retryPeriod;
    }
  }
}
