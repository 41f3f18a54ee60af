package dev.isolato.config;

import dev.isolato.incontext.InContextCalibrations;
import dev.isolato.kube.LeanItemStore;
import dev.isolato.kube.NamedThreads;
import dev.isolato.pool.PoolReconciler;
import dev.isolato.profiler.TenantProfilerLoop;
import dev.isolato.scaling.Autoscaler;
import dev.isolato.scaling.DirectScaler;
import dev.isolato.slo.CapacityPlanner;
import dev.isolato.tenancy.CachedTenants;
import dev.isolato.tenancy.SloClassReconciler;
import dev.isolato.tenancy.TablePusher;
import dev.isolato.tenancy.TenancyMetrics;
import dev.isolato.tenancy.Tenant;
import dev.isolato.tenancy.TenantReleaser;
import dev.isolato.verification.VerificationLoop;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.context.ApplicationStartupAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;
import org.springframework.stereotype.Component;

/**
 * Runs the Java Operator SDK inside Spring (JOSDK 5 has no Spring Boot starter): bootstraps the
 * cluster, registers the reconciler and starts the operator with the context, stops it with the
 * context. With leader election, only the lease holder reconciles, and in a cluster only its pod
 * serves the REST API ({@link LeaderRouting}). A replica that loses the lease while running halts
 * at once (as client-go's controllers do), so two replicas never reconcile together; Kubernetes
 * restarts it as a follower. One that stops normally releases the lease, so a follower takes over
 * within a retry period instead of waiting for the lease to expire.
 *
 * <p>The context's start (and so readiness) waits for what the REST API needs: the CRDs, the
 * namespace, the pool key. The operator's informers list and watch after that, in the background (≈
 * 0.5 s of a ≈ 2 s start, docs/benchmarks-log.md "Controller start"): reconciling never was part of
 * readiness (only the lease holder reconciles, and it takes the lease after the start), and tenants
 * written meanwhile are reconciled from the informers' first list. A start that fails still ends
 * the process, as it did when it failed the context.
 */
@Component
public class OperatorLifecycle
    implements SmartLifecycle, ApplicationStartupAware, ApplicationEventPublisherAware {
  private static final Duration RETRY_MAX_INTERVAL = Duration.ofSeconds(30);
  private static final Duration RESYNC_INTERVAL = Duration.ofMinutes(5);

  /**
   * How long a stop waits for a start still listing (JOSDK's own cache-sync timeout is 2 min): the
   * operator then stops whole rather than half-started.
   */
  static final Duration START_WAIT_ON_STOP = Duration.ofSeconds(30);

  private final KubernetesClient client;
  private final IsolatoProperties props;
  private final CapacityPlanner planner;
  private final TablePusher pusher;
  private final TenancyMetrics metrics;
  private final MeterRegistry registry;
  private static final Logger log = LoggerFactory.getLogger(OperatorLifecycle.class);
  private final String identity = identity();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private volatile Operator operator;
  private volatile CompletableFuture<Void> operatorStart = CompletableFuture.completedFuture(null);
  private final LeaderRouting routing;
  private final Autoscaler autoscaler;
  private final DirectScaler directScaler;

  /**
   * The tenant profiler (issue 12); null when no Prometheus is configured. Runs on the leader only.
   */
  private final TenantProfilerLoop profiler;

  /** The capacity verification loop (issue 34); null without Prometheus. Leader only. */
  private final VerificationLoop verification;

  /** In-context calibrations (issue 34 item 1): advanced by the leader only. */
  private final InContextCalibrations calibrations;

  /** Records the start's cluster steps (isolato.startup-steps, dev.isolato.StartupSteps). */
  private ApplicationStartup startup = ApplicationStartup.DEFAULT;

  private ApplicationEventPublisher events = event -> {};

  public OperatorLifecycle(
      KubernetesClient client,
      IsolatoProperties props,
      CapacityPlanner planner,
      TablePusher pusher,
      TenancyMetrics metrics,
      MeterRegistry registry,
      @Value("${ISOLATO_POD_NAME:}") String podName,
      Autoscaler autoscaler,
      DirectScaler directScaler,
      ObjectProvider<TenantProfilerLoop> profiler,
      ObjectProvider<VerificationLoop> verification,
      InContextCalibrations calibrations) {
    this.verification = verification.getIfAvailable();
    this.calibrations = calibrations;
    this.autoscaler = autoscaler;
    this.directScaler = directScaler;
    this.profiler = profiler.getIfAvailable();
    this.routing = new LeaderRouting(client, props.namespace(), podName);
    this.client = client;
    this.props = props;
    this.planner = planner;
    this.pusher = pusher;
    this.metrics = metrics;
    this.registry = registry;
  }

  @Override
  public void setApplicationStartup(ApplicationStartup startup) {
    this.startup = startup;
  }

  @Override
  public void setApplicationEventPublisher(ApplicationEventPublisher events) {
    this.events = events;
  }

  @Override
  public void start() {
    stopping.set(false); // a restarted instance halts again when it loses its lease
    StartupStep step = startup.start("isolato.cluster-bootstrap");
    ClusterBootstrap bootstrap = new ClusterBootstrap(client, props);
    if (props.installCrds()) {
      bootstrap.installCrds();
    }
    bootstrap.ensureNamespace();
    bootstrap.ensurePoolKeys();
    routing.resign();
    events.publishEvent(new ClusterBootstrapped());
    step.end();
    step = startup.start("isolato.operator-register");
    Operator op =
        new Operator(
            o -> {
              o.withKubernetesClient(client)
                  .withCloseClientOnStop(false)
                  // the class and pool reconcilers share JOSDK's executor
                  .withConcurrentReconciliationThreads(
                      props.reconcileThreads() + props.poolApplyThreads())
                  // the pools' workflows (their dependents run in parallel): JOSDK's default is
                  // 50 unnamed threads, which a 10,000-tenant run filled; two per pool applier
                  // keep every applier's dependents moving
                  .withWorkflowExecutorService(
                      Executors.newFixedThreadPool(
                          2 * props.poolApplyThreads(), new NamedThreads("isolato-workflow")))
                  .withUseSSAToPatchPrimaryResource(true)
                  // reconcile timers and counters per controller (operator_sdk_* in Prometheus);
                  // not per
                  // resource: its tags differ between cluster-scoped and namespaced resources,
                  // which
                  // Prometheus refuses under one meter name
                  .withMetrics(MicrometerMetrics.withoutPerResourceMetrics(registry));
              if (props.leaderElection().enabled()) {
                var le = props.leaderElection();
                o.withLeaderElectionConfiguration(
                    new LeaderElectionConfiguration(
                        le.leaseName(),
                        props.namespace(),
                        le.leaseDuration(),
                        le.renewDeadline(),
                        le.retryPeriod(),
                        identity,
                        new LeaderCallbacks(
                            this::startLeading,
                            this::lostLease,
                            leader -> log.info("lease {} held by {}", le.leaseName(), leader)),
                        false));
              }
            });
    SloClassReconciler reconciler =
        new SloClassReconciler(
            client,
            planner,
            metrics,
            props.namespace(),
            props.imagePolicy(),
            props.networkPeers(),
            autoscaler::choice);
    op.register(
        reconciler,
        c ->
            c.withName("sloclass")
                .withFinalizer(dev.isolato.tenancy.SloClass.FINALIZER)
                .withFieldManager(dev.isolato.tenancy.PoolObjects.FIELD_MANAGER)
                .withGenerationAware(false)
                .withOnUpdateFilter(SloClassReconciler::worthReconciling)
                .withItemStore(new LeanItemStore<>())
                .withRetry(neverGiveUp())
                .withReconciliationMaxInterval(RESYNC_INTERVAL));
    // each pool resource the class reconciler writes: its objects, table push and status
    op.register(
        new PoolReconciler(
            pusher,
            metrics,
            props.namespace(),
            props.imagePolicy(),
            props.pools().tableCheck(),
            reconciler.tableServed()),
        c ->
            c.withName("slopool")
                .withFieldManager(dev.isolato.tenancy.PoolObjects.FIELD_MANAGER)
                .withItemStore(new LeanItemStore<>())
                .withRetry(neverGiveUp())
                .withReconciliationMaxInterval(RESYNC_INTERVAL));
    // deleted tenants whose class is gone (the class reconciler releases all others)
    op.register(
        new TenantReleaser(client),
        c ->
            c.withName("tenant-release")
                .settingNamespace(props.namespace())
                .withFinalizer(Tenant.FINALIZER)
                .withOnAddFilter(TenantReleaser::worthReconciling)
                .withOnUpdateFilter((newer, older) -> TenantReleaser.worthReconciling(newer))
                .withFieldManager(dev.isolato.tenancy.PoolObjects.FIELD_MANAGER)
                // the releaser reads a tenant's class and metadata: statuses stay out
                .withItemStore(new LeanItemStore<>(CachedTenants.WITHOUT_STATUS))
                .withInformerListLimit(LeanItemStore.LIST_PAGE));
    step.end();
    operator = op;
    operatorStart =
        CompletableFuture.runAsync(
            () -> startOperator(op), r -> new Thread(r, "isolato-operator-start").start());
  }

  /** The operator's informers, then (without leader election) what the leader runs. */
  private void startOperator(Operator op) {
    // no Spring startup step: those nest in the order they start, whatever the thread
    long t0 = System.nanoTime();
    try {
      op.start();
    } catch (RuntimeException e) {
      if (stopping.get()) {
        return; // stopped while starting
      }
      log.error("the operator did not start: exiting", e);
      // from a thread of its own: exit's shutdown hook stops this lifecycle, which waits for
      // this start to return
      new Thread(() -> System.exit(1), "isolato-exit").start();
      return;
    }
    log.info(
        "operator started in {} ms (its informers listed and watching)",
        (System.nanoTime() - t0) / 1_000_000);
    if (!props.leaderElection().enabled() && !stopping.get()) {
      routing.lead();
      directScaler.start();
      startProfiler();
    }
  }

  /**
   * Never give up on a class or a pool: JOSDK's default stops after 5 quick retries, and a class
   * re-created while its old namespace still terminates (403, then 404 for ~10 s) was left
   * unreconciled until some later event. The periodic pass is the last safety net.
   */
  private static GenericRetry neverGiveUp() {
    return new GenericRetry()
        .setInitialInterval(500)
        .setIntervalMultiplier(2)
        .setMaxInterval(RETRY_MAX_INTERVAL.toMillis())
        .withoutMaxAttempts();
  }

  @Override
  public void stop() {
    Operator op = operator;
    operator = null;
    stopping.set(true);
    awaitStart();
    if (profiler != null) {
      profiler.stop();
    }
    calibrations.stop();
    if (verification != null) {
      verification.stop();
    }
    if (op != null) {
      op.stop();
      if (props.leaderElection().enabled()) {
        releaseLease();
      }
    }
  }

  private void awaitStart() {
    try {
      operatorStart.get(START_WAIT_ON_STOP.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      log.warn("the operator's start still runs after {}: stopping it", START_WAIT_ON_STOP);
    } catch (ExecutionException e) {
      log.debug("the operator's start failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void startLeading() {
    log.info("leading as {}", identity);
    routing.lead();
    directScaler.start();
    startProfiler();
  }

  private void startProfiler() {
    if (profiler != null) {
      profiler.start();
    }
    calibrations.start();
    if (verification != null) {
      verification.start();
    }
  }

  /**
   * JOSDK's own exit on a lost lease calls System.exit from the elector's completion, which also
   * runs on a normal stop (and then blocks the shutdown hook forever); this callback tells the two
   * apart.
   */
  private void lostLease() {
    if (stopping.get()) {
      return;
    }
    log.error(
        "lost the leader lease {} (identity {}): halting so that only the new leader reconciles",
        props.leaderElection().leaseName(),
        identity);
    Runtime.getRuntime().halt(1);
  }

  /** Hands the lease over on a normal stop: an empty holder may be taken at once. */
  private void releaseLease() {
    try {
      client
          .resources(Lease.class)
          .inNamespace(props.namespace())
          .withName(props.leaderElection().leaseName())
          .edit(
              l -> {
                if (l.getSpec() != null && identity.equals(l.getSpec().getHolderIdentity())) {
                  l.getSpec().setHolderIdentity("");
                  l.getSpec().setLeaseDurationSeconds(1);
                  l.getSpec().setRenewTime(ZonedDateTime.now(java.time.ZoneOffset.UTC));
                }
                return l;
              });
      log.info("released the leader lease {}", props.leaderElection().leaseName());
    } catch (KubernetesClientException e) {
      log.warn(
          "could not release the leader lease (a follower takes over when it expires): {}",
          e.getMessage());
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
