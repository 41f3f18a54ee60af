package dev.isolato.api;

import dev.isolato.config.IsolatoProperties;
import dev.isolato.config.KubernetesConfig;
import dev.isolato.tenancy.Tenant;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;

/**
 * The API's watch-fed copy of the Tenants, for the admission check of a POST: listing every tenant
 * from the API server on each request made a burst of onboardings O(n²) in bytes read. The API
 * server stays the only store; the copy lags it by a watch event (milliseconds), which is the same
 * race two concurrent requests already had with a fresh list. Started on first use, after the
 * bootstrap installed the CRDs.
 */
@Component
public class TenantIndex implements DisposableBean {
  private final KubernetesClient client;
  private final String namespace;
  private volatile SharedIndexInformer<Tenant> informer;

  public TenantIndex(
      @Qualifier(KubernetesConfig.API_CLIENT) KubernetesClient client, IsolatoProperties props) {
    this.client = client;
    this.namespace = props.namespace();
  }

  /** Every tenant of the tenant namespace as last seen by the watch. */
  public List<Tenant> all() {
    return informer().getStore().list();
  }

  private SharedIndexInformer<Tenant> informer() {
    SharedIndexInformer<Tenant> i = informer;
    if (i == null) {
      synchronized (this) {
        if (informer == null) {
          informer = client.resources(Tenant.class).inNamespace(namespace).inform();
        }
        i = informer;
      }
    }
    return i;
  }

  @Override
  public synchronized void destroy() {
    if (informer != null) {
      informer.close();
    }
  }
}
