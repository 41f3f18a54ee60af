package dev.isolato.config;

import dev.isolato.slo.CapacityPlanner;
import dev.isolato.tenancy.SloClassReconciler;
import dev.isolato.tenancy.TablePusher;
import dev.isolato.tenancy.Tenant;
import dev.isolato.tenancy.TenantReleaser;
import dev.isolato.tenancy.TenancyMetrics;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.UUID;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs the Java Operator SDK inside Spring (JOSDK 5 has no Spring Boot starter): bootstraps
 * the cluster, registers the reconciler and starts the operator with the context, stops it
 * with the context. With leader election, only the lease holder reconciles; every replica
 * serves the REST API.
 */
@Component
public class OperatorLifecycle implements SmartLifecycle {
  private static final Duration RETRY_MAX_INTERVAL = Duration.ofSeconds(30);
  private static final Duration RESYNC_INTERVAL = Duration.ofMinutes(5);

  private final KubernetesClient client;
  private final IsolatoProperties props;
  private final CapacityPlanner planner;
  private final TablePusher pusher;
  private final TenancyMetrics metrics;
  private volatile Operator operator;

  public OperatorLifecycle(KubernetesClient client, IsolatoProperties props, CapacityPlanner planner,
      TablePusher pusher, TenancyMetrics metrics) {
    this.client = client;
    this.props = props;
    this.planner = planner;
    this.pusher = pusher;
    this.metrics = metrics;
  }

  @Override
  public void start() {
    ClusterBootstrap bootstrap = new ClusterBootstrap(client, props);
    if (props.installCrds()) {
      bootstrap.installCrds();
    }
    bootstrap.ensureNamespace();
    bootstrap.ensurePoolKeys();
    Operator op = new Operator(o -> {
      o.withKubernetesClient(client).withCloseClientOnStop(false)
          .withConcurrentReconciliationThreads(props.reconcileThreads())
          .withUseSSAToPatchPrimaryResource(true);
      if (props.leaderElection().enabled()) {
        var le = props.leaderElection();
        o.withLeaderElectionConfiguration(new LeaderElectionConfiguration(le.leaseName(), props.namespace(),
            le.leaseDuration(), le.renewDeadline(), le.retryPeriod(), identity(), null, false));
      }
    });
    op.register(new SloClassReconciler(client, planner, pusher, metrics, props.namespace(),
        props.imagePolicy(), props.networkPeers()),
        c -> c.withName("sloclass").withFinalizer(dev.isolato.tenancy.Tenant.FINALIZER)
            .withFieldManager(dev.isolato.tenancy.Applier.FIELD_MANAGER)
            .withGenerationAware(false).withOnUpdateFilter(SloClassReconciler::worthReconciling)
            // Never give up on a class: JOSDK's default stops after 5 quick retries, and a class
            // re-created while its old namespace still terminates (403, then 404 for ~10 s) was
            // left unreconciled until some later event. The periodic pass is the last safety net.
            .withRetry(new GenericRetry().setInitialInterval(500).setIntervalMultiplier(2)
                .setMaxInterval(RETRY_MAX_INTERVAL.toMillis()).withoutMaxAttempts())
            .withReconciliationMaxInterval(RESYNC_INTERVAL));
    // deleted tenants whose class is gone (the class reconciler releases all others)
    op.register(new TenantReleaser(client),
        c -> c.withName("tenant-release").settingNamespace(props.namespace()).withFinalizer(Tenant.FINALIZER)
            .withFieldManager(dev.isolato.tenancy.Applier.FIELD_MANAGER));
    op.start();
    operator = op;
  }

  @Override
  public void stop() {
    Operator op = operator;
    operator = null;
    if (op != null) {
      op.stop();
    }
  }

  @Override
  public boolean isRunning() {
    return operator != null;
  }

  private static String identity() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "isolato";
    }
    return host + "-" + UUID.randomUUID().toString().substring(0, 8);
  }
}
