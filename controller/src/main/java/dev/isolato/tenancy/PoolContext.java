package dev.isolato.tenancy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.api.reconciler.dependent.managed.DefaultManagedWorkflowAndDependentResourceContext;
import io.javaoperatorsdk.operator.api.reconciler.dependent.managed.ManagedWorkflowAndDependentResourceContext;
import io.javaoperatorsdk.operator.processing.event.EventSourceRetriever;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * The class reconcile's context with a workflow context of one pool's own: the pool workflow keeps
 * its desired objects ({@link PoolDependent#DESIRED}) and its result there, and JOSDK's is one map
 * per reconcile, so pools applied concurrently would overwrite each other's. Everything else (the
 * informers, the client, the executors) is the reconcile's.
 */
final class PoolContext implements Context<SloClass> {
  private final Context<SloClass> reconcile;
  private final ManagedWorkflowAndDependentResourceContext pool;

  PoolContext(Context<SloClass> reconcile) {
    this.reconcile = reconcile;
    // the controller argument is only used to run a managed workflow, which a pool has not
    this.pool =
        new DefaultManagedWorkflowAndDependentResourceContext<>(
            null, reconcile.getPrimaryResource(), this);
  }

  @Override
  public ManagedWorkflowAndDependentResourceContext managedWorkflowAndDependentResourceContext() {
    return pool;
  }

  @Override
  public Optional<RetryInfo> getRetryInfo() {
    return reconcile.getRetryInfo();
  }

  @Override
  public <R> Set<R> getSecondaryResources(Class<R> expectedType) {
    return reconcile.getSecondaryResources(expectedType);
  }

  @Override
  public <R> Optional<R> getSecondaryResource(Class<R> expectedType, String eventSourceName) {
    return reconcile.getSecondaryResource(expectedType, eventSourceName);
  }

  @Override
  public ControllerConfiguration<SloClass> getControllerConfiguration() {
    return reconcile.getControllerConfiguration();
  }

  @Override
  public EventSourceRetriever<SloClass> eventSourceRetriever() {
    return reconcile.eventSourceRetriever();
  }

  @Override
  public KubernetesClient getClient() {
    return reconcile.getClient();
  }

  @Override
  public ExecutorService getWorkflowExecutorService() {
    return reconcile.getWorkflowExecutorService();
  }

  @Override
  public SloClass getPrimaryResource() {
    return reconcile.getPrimaryResource();
  }

  @Override
  public IndexedResourceCache<SloClass> getPrimaryCache() {
    return reconcile.getPrimaryCache();
  }

  @Override
  public boolean isNextReconciliationImminent() {
    return reconcile.isNextReconciliationImminent();
  }

  @Override
  public boolean isPrimaryResourceDeleted() {
    return reconcile.isPrimaryResourceDeleted();
  }

  @Override
  public boolean isPrimaryResourceFinalStateUnknown() {
    return reconcile.isPrimaryResourceFinalStateUnknown();
  }
}
