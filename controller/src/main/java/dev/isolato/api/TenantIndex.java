package dev.isolato.api;

import dev.isolato.config.ClusterBootstrapped;
import dev.isolato.config.IsolatoProperties;
import dev.isolato.config.KubernetesConfig;
import dev.isolato.kube.LeanItemStore;
import dev.isolato.tenancy.CachedTenants;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.Tenant;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The API's watch-fed copies of the Tenants and the classes, for the admission check of a POST:
 * listing every tenant from the API server on each request made a burst of onboardings O(n²) in
 * bytes read. The API server stays the only store; the copy lags it by a watch event
 * (milliseconds), which is the same race two concurrent requests already had with a fresh list.
 * Started in the background on every replica once the bootstrap installed the CRDs (or on first
 * use, when that comes sooner): a standby that takes the lease over answers its first POST without
 * listing every tenant first.
 */
@Component
public class TenantIndex implements DisposableBean {
  private final KubernetesClient client;
  private final String namespace;
  private volatile SharedIndexInformer<Tenant> informer;
  private volatile SharedIndexInformer<SloClass> classes;
  private boolean closed; // guarded by this
  private static final Logger log = LoggerFactory.getLogger(TenantIndex.class);

  public TenantIndex(
      @Qualifier(KubernetesConfig.API_CLIENT) KubernetesClient client, IsolatoProperties props) {
    this.client = client;
    this.namespace = props.namespace();
  }

  /** Lists and watches from a thread of its own: the replica's start does not wait for it. */
  @EventListener
  public void onBootstrapped(ClusterBootstrapped event) {
    Thread t =
        new Thread(
            () -> {
              try {
                informer();
              } catch (RuntimeException e) {
                // the first POST lists again (informer() keeps no failed informer)
                log.warn("the API's tenant copy did not start: the first POST starts it", e);
              }
            },
            "isolato-api-index");
    t.setDaemon(true);
    t.start();
  }

  /** Every tenant of the tenant namespace as last seen by the watch. */
  public List<Tenant> all() {
    return informer().getStore().list();
  }

  /**
   * Whether tenant {@code id} may exist: false only when the watch runs and has not seen it (a
   * tenant created within the watch's lag is a miss: the API server's 409 on create still decides).
   * Does not start the watch.
   */
  public boolean mayHave(String id) {
    SharedIndexInformer<Tenant> i = informer;
    return i == null || i.getStore().getByKey(namespace + "/" + id) != null;
  }

  /**
   * The class as the watch last saw it; empty when the watch has not (a class created within its
   * lag: the caller reads the API server). A copy may lag an update by one watch event, the same
   * race two concurrent requests have with a fresh read. Does not start the watch (the tenants'
   * does, on first use: after the API server answered).
   */
  public Optional<SloClass> sloClass(String name) {
    SharedIndexInformer<SloClass> i = classes;
    return i == null ? Optional.empty() : Optional.ofNullable(i.getStore().getByKey(name));
  }

  private SharedIndexInformer<Tenant> informer() {
    SharedIndexInformer<Tenant> i = informer;
    if (i == null) {
      synchronized (this) {
        if (closed) {
          throw new IllegalStateException("the API's tenant copy is closed (shutting down)");
        }
        if (informer == null) {
          // admission reads the tenants' specs only: their statuses (conditions) stay out
          informer =
              LeanItemStore.inform(
                  client.resources(Tenant.class).inNamespace(namespace),
                  new LeanItemStore<>(CachedTenants.WITHOUT_STATUS));
          classes = LeanItemStore.inform(client.resources(SloClass.class));
        }
        i = informer;
      }
    }
    return i;
  }

  @Override
  public synchronized void destroy() {
    closed = true;
    if (informer != null) {
      informer.close();
    }
    if (classes != null) {
      classes.close();
    }
  }
}
