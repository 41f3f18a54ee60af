package dev.isolato.pool;

import static io.javaoperatorsdk.operator.processing.dependent.kubernetes.BooleanWithUndefined.TRUE;

import dev.isolato.scaling.DirectFloor;
import dev.isolato.scaling.ScaledObject;
import dev.isolato.scaling.ScaledObjects;
import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.SloPool;
import dev.isolato.tenancy.SloPoolSpec;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Instant;

/**
 * The dependents of a pool, one class per object, each built by its {@link PoolObjects} builder
 * from the pool resource; {@link PoolReconciler}'s {@code @Workflow} orders them. Every informer
 * selects Isolato's objects only ({@link #MANAGED}), and every write is a server-side apply whose
 * match compares quantities by value ({@link QuantityAwareMatcher}), also for ConfigMaps and
 * Secrets (JOSDK leaves those to update by default): a data key dropped from the desired state is
 * dropped from the cluster only by an apply of the owning manager.
 */
final class PoolDependents {
  /** The informers' label selector: Isolato's objects only. */
  static final String MANAGED = PoolObjects.MANAGED_BY + "=" + PoolObjects.MANAGER;

  private PoolDependents() {}

  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class PoolNamespace extends PoolObjectDependent<Namespace> {
    public PoolNamespace() {
      super(Namespace.class, PoolObjects::namespace);
    }
  }

  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class ClassPriority extends PoolObjectDependent<PriorityClass> {
    public ClassPriority() {
      super(PriorityClass.class, in -> PoolObjects.priorityClass(in.sloClass()));
    }
  }

  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class Quota extends PoolObjectDependent<ResourceQuota> {
    public Quota() {
      super(ResourceQuota.class, PoolObjects::resourceQuota);
    }
  }

  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class Limits extends PoolObjectDependent<LimitRange> {
    public Limits() {
      super(LimitRange.class, PoolObjects::limitRange);
    }
  }

  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class DenyAll extends PoolObjectDependent<NetworkPolicy> {
    public DenyAll() {
      super(NetworkPolicy.class, PoolObjects::denyAllPolicy);
    }
  }

  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class AllowService extends PoolObjectDependent<NetworkPolicy> {
    public AllowService() {
      super(NetworkPolicy.class, PoolObjects::allowServicePolicy);
    }
  }

  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class AdminSecret extends PoolObjectDependent<Secret> {
    public AdminSecret() {
      super(Secret.class, PoolObjects::adminSecret);
    }
  }

  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class Table extends PoolObjectDependent<ConfigMap> {
    public Table() {
      super(ConfigMap.class, PoolObjects::tableConfigMap);
    }
  }

  /**
   * The workload. The plan's replica count is a floor: an autoscaler that added pods keeps them.
   */
  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class Workload extends PoolObjectDependent<Deployment> {
    public Workload() {
      super(Deployment.class, PoolObjects::deployment);
    }

    @Override
    protected Deployment desired(SloPool pool, Context<SloPool> context) {
      Deployment want = super.desired(pool, context);
      Deployment live =
          eventSource().flatMap(es -> es.get(ResourceID.fromResource(want))).orElse(null);
      return (Deployment) PoolObjects.floorReplicas(want, live);
    }
  }

  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class WorkloadService extends PoolObjectDependent<Service> {
    public WorkloadService() {
      super(Service.class, PoolObjects::service);
    }
  }

  /** The CPU autoscaler, unless the pool scales on KEDA's triggers (then it is deleted). */
  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class CpuAutoscaler extends PoolObjectDependent<HorizontalPodAutoscaler> {
    public CpuAutoscaler() {
      super(HorizontalPodAutoscaler.class, null);
    }

    @Override
    protected HorizontalPodAutoscaler desired(SloPool pool, Context<SloPool> context) {
      PoolObjects.Input in = input(pool, context);
      return (HorizontalPodAutoscaler) PoolObjects.autoscaler(in, minReplicas(pool, in, context));
    }
  }

  /**
   * The autoscaler's floor: the plan, raised by the direct path's last raise while it holds, so
   * that the HPA does not undo it at its next sync ({@link DirectFloor}).
   */
  static int minReplicas(SloPool pool, PoolObjects.Input in, Context<SloPool> context) {
    return DirectFloor.minReplicas(
        in.plan().replicas(),
        in.sloClass().getSpec().maxReplicas,
        PoolReconciler.directFloor(pool, context),
        Instant.now());
  }

  /**
   * KEDA's ScaledObject on the measured cut-off. Activated only for a pool whose spec chose KEDA,
   * which the class reconciler does only while KEDA's API is served: its informer is not started
   * where the CRD is absent.
   */
  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class KedaAutoscaler extends PoolObjectDependent<ScaledObject> {
    public KedaAutoscaler() {
      super(ScaledObject.class, null);
    }

    @Override
    protected ScaledObject desired(SloPool pool, Context<SloPool> context) {
      PoolObjects.Input in = input(pool, context);
      return ScaledObject.of(
          ScaledObjects.forPool(in, minReplicas(pool, in, context), pool.getSpec().keda));
    }
  }

  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class FillerPriority extends PoolObjectDependent<PriorityClass> {
    public FillerPriority() {
      super(PriorityClass.class, in -> PoolObjects.fillerPriorityClass(in.sloClass()));
    }
  }

  @KubernetesDependent(
      useSSA = TRUE,
      matcher = QuantityAwareMatcher.class,
      informer = @Informer(labelSelector = MANAGED))
  public static final class Filler extends PoolObjectDependent<Deployment> {
    public Filler() {
      super(Deployment.class, PoolObjects::fillerDeployment);
    }
  }

  /** Reconcile precondition of the CPU HPA: the pool does not scale on KEDA. */
  public static final class CpuChosen implements Condition<HorizontalPodAutoscaler, SloPool> {
    @Override
    public boolean isMet(
        DependentResource<HorizontalPodAutoscaler, SloPool> dependent,
        SloPool pool,
        Context<SloPool> context) {
      return !SloPoolSpec.KEDA.equals(pool.getSpec().autoscaler);
    }
  }

  /** Activation condition of the ScaledObject: the pool scales on KEDA. */
  public static final class KedaChosen implements Condition<ScaledObject, SloPool> {
    @Override
    public boolean isMet(
        DependentResource<ScaledObject, SloPool> dependent,
        SloPool pool,
        Context<SloPool> context) {
      return SloPoolSpec.KEDA.equals(pool.getSpec().autoscaler) && pool.getSpec().keda != null;
    }
  }

  /** Reconcile precondition of the filler's objects: the class runs a filler (else deleted). */
  public static final class FillerWanted implements Condition<HasMetadata, SloPool> {
    @Override
    public boolean isMet(
        DependentResource<HasMetadata, SloPool> dependent, SloPool pool, Context<SloPool> context) {
      return PoolObjects.headroom(pool.getSpec().classSpec).runsFiller();
    }
  }
}
