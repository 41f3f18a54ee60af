package dev.isolato.tenancy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases a deleted tenant whose class is gone: no class reconcile will ever run for it, so
 * without this its finalizer ({@link Tenant#FINALIZER}, which this reconciler is registered with)
 * would keep it Terminating for good. While the class exists the class reconciler releases its
 * tenants (out of every table first); a class on its way out is looked at again shortly, so no
 * tenant slips between the two.
 */
public class TenantReleaser implements Reconciler<Tenant>, Cleaner<Tenant> {
  private static final Logger log = LoggerFactory.getLogger(TenantReleaser.class);
  static final Duration CLASS_GOING = Duration.ofSeconds(2);

  private final KubernetesClient client;

  public TenantReleaser(KubernetesClient client) {
    this.client = client;
  }

  /**
   * The only tenants this reconciler needs to see: deleted ones, and any created without the
   * finalizer (by kubectl: JOSDK adds it). The others are filtered out before JOSDK keeps any state
   * for them: at 10,000 tenants a per-tenant state and reschedule timer each were ~5 % of the heap.
   */
  public static boolean worthReconciling(Tenant t) {
    return t.getMetadata().getDeletionTimestamp() != null || !t.hasFinalizer(Tenant.FINALIZER);
  }

  /** Live tenants are the class reconciler's. */
  @Override
  public UpdateControl<Tenant> reconcile(Tenant t, Context<Tenant> context) {
    return UpdateControl.noUpdate();
  }

  @Override
  public DeleteControl cleanup(Tenant t, Context<Tenant> context) {
    SloClass cls = client.resources(SloClass.class).withName(t.getSpec().sloClass).get();
    if (cls == null) {
      log.info(
          "releasing tenant {}: its class {} no longer exists",
          t.getMetadata().getName(),
          t.getSpec().sloClass);
      return DeleteControl.defaultDelete();
    }
    return cls.getMetadata().getDeletionTimestamp() != null
        ? DeleteControl.noFinalizerRemoval().rescheduleAfter(CLASS_GOING)
        : DeleteControl.noFinalizerRemoval();
  }
}
