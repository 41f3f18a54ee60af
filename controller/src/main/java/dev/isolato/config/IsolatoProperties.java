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
 * @param kubeconfig kubeconfig file; empty = fabric8's usual lookup (KUBECONFIG, ~/.kube/config, in-cluster)
 * @param installCrds apply the CRDs at startup (server-side apply)
 * @param reconcileThreads concurrent class reconciles
 * @param api authentication of the REST API
 * @param leaderElection lease settings so that two replicas can run
 * @param pools what pools may run and who may reach them
 */
@ConfigurationProperties("isolato")
public record IsolatoProperties(
    String namespace,
    String kubeconfig,
    boolean installCrds,
    int reconcileThreads,
    Api api,
    LeaderElection leaderElection,
    Pools pools) {

  public IsolatoProperties {
    namespace = namespace == null || namespace.isBlank() ? "isolato-system" : namespace;
    reconcileThreads = reconcileThreads <= 0 ? 4 : reconcileThreads;
    api = api == null ? new Api(null, null, true, null) : api;
    leaderElection = leaderElection == null ? new LeaderElection(true, null, null, null, null) : leaderElection;
    pools = pools == null ? new Pools(null, null, null, null, null, null) : pools;
  }

  /**
   * @param imageAllowlist images a class may run: exact references or prefixes ending in *
   *     (default: the saas-bench image only)
   * @param ingressNamespaceSelector {@code key=value,...} labels of the namespaces whose pods
   *     may reach a pool's Service port (the provider's ingress); empty = none
   * @param ingressPodSelector {@code key=value,...} labels of those pods; empty = any pod there
   * @param ingressCidrs address blocks that may reach a pool's Service port
   * @param controllerCidrs address blocks the controller pushes tables from when it runs outside
   *     the pod network (e.g. a host process)
   * @param controllerNamespace namespace whose pods may push tables (an in-cluster controller's);
   *     default {@code namespace}
   */
  public record Pools(List<String> imageAllowlist, String ingressNamespaceSelector, String ingressPodSelector,
      List<String> ingressCidrs, List<String> controllerCidrs, String controllerNamespace) {
    public Pools {
      imageAllowlist = imageAllowlist == null || imageAllowlist.isEmpty() ? List.of(Workload.DEFAULT_IMAGE) : List.copyOf(imageAllowlist);
      ingressNamespaceSelector = ingressNamespaceSelector == null ? "isolato.dev/ingress=true" : ingressNamespaceSelector;
      ingressPodSelector = ingressPodSelector == null ? "" : ingressPodSelector;
      ingressCidrs = ingressCidrs == null ? List.of() : List.copyOf(ingressCidrs);
      controllerCidrs = controllerCidrs == null ? List.of() : List.copyOf(controllerCidrs);
      controllerNamespace = controllerNamespace == null ? "" : controllerNamespace;
    }
  }

  public ImagePolicy imagePolicy() {
    return new ImagePolicy(pools.imageAllowlist());
  }

  public NetworkPeers networkPeers() {
    return new NetworkPeers(NetworkPeers.selector(pools.ingressNamespaceSelector()),
        NetworkPeers.selector(pools.ingressPodSelector()), pools.ingressCidrs(),
        pools.controllerNamespace().isBlank() ? namespace : pools.controllerNamespace(), pools.controllerCidrs());
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
