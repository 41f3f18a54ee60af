package dev.isolato.api;

import dev.isolato.calibration.FieldError;
import dev.isolato.config.IsolatoProperties;
import dev.isolato.config.KubernetesConfig;
import dev.isolato.kube.PagedList;
import dev.isolato.tenancy.ImagePolicy;
import dev.isolato.tenancy.Pool;
import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.Pools;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassSpec;
import dev.isolato.tenancy.Tenant;
import dev.isolato.tenancy.Workload;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/** Reads SloClasses and their tenants for the API, with the API's errors for missing classes. */
@Component
public class SloClasses {
  private final KubernetesClient client;
  private final String tenantNamespace;
  private final ImagePolicy images;

  public SloClasses(
      @Qualifier(KubernetesConfig.API_CLIENT) KubernetesClient client, IsolatoProperties props) {
    this.client = client;
    this.tenantNamespace = props.namespace();
    this.images = props.imagePolicy();
  }

  /** 400 naming the allowlist when the class's image is not allowed. */
  public void requireAllowedImage(SloClassSpec spec) {
    images
        .problem(spec)
        .ifPresent(
            m -> {
              throw ApiException.invalid(List.of(new FieldError(Workload.imageField(spec), m)));
            });
  }

  /**
   * 409 when a pool's namespace exists and Isolato did not create it: the pool could never be
   * provisioned there (the reconciler does not adopt it either).
   */
  public void requireFreeNamespace(String namespace, String field) {
    Namespace ns = client.namespaces().withName(namespace).get();
    Map<String, String> labels =
        ns == null || ns.getMetadata().getLabels() == null
            ? Map.of()
            : ns.getMetadata().getLabels();
    if (ns != null && !PoolObjects.MANAGER.equals(labels.get(PoolObjects.MANAGED_BY))) {
      throw new ApiException(
          HttpStatus.CONFLICT,
          "Namespace taken",
          "namespace '"
              + namespace
              + "' exists and was not created by Isolato; choose another "
              + field,
          Map.of("field", field, "namespace", namespace));
    }
  }

  /** The class named in a URL path; 404 when it does not exist. */
  public SloClass find(String name) {
    SloClass c = get(name);
    if (c == null) {
      throw ApiException.notFound("SLO class", name);
    }
    return c;
  }

  /**
   * The class named by {@code field} of a request body; 422 when it does not exist or is being
   * deleted.
   */
  public SloClass referenced(String name, String field) {
    return referenced(name, field, null);
  }

  /** The same, from {@code copy} (a watched copy of the class) when there is one. */
  public SloClass referenced(String name, String field, SloClass copy) {
    SloClass c = copy != null ? copy : get(name);
    if (c == null) {
      throw new ApiException(
          HttpStatus.UNPROCESSABLE_ENTITY,
          "Unknown SLO class",
          field + " '" + name + "' does not exist",
          Map.of("field", field));
    }
    if (c.getMetadata().getDeletionTimestamp() != null) {
      throw new ApiException(
          HttpStatus.UNPROCESSABLE_ENTITY,
          "SLO class being deleted",
          field + " '" + name + "' is being deleted and admits no new tenant",
          Map.of("field", field));
    }
    return c;
  }

  /** The class, or null; a name no object can have is not looked up. */
  private SloClass get(String name) {
    return Validation.possibleName(name)
        ? client.resources(SloClass.class).withName(name).get()
        : null;
  }

  /** Every tenant (live or terminating) of the class. */
  public List<Tenant> tenantsOf(String sloClass) {
    return PagedList.all(
        o -> client.resources(Tenant.class).inNamespace(tenantNamespace).list(o),
        t -> sloClass.equals(t.getSpec().sloClass));
  }

  /** The class's shared pool with its live tenants (as the reconciler plans it). */
  public Pool sharedPool(String sloClass) {
    return Pools.of(sloClass, tenantsOf(sloClass)).get(0);
  }
}
