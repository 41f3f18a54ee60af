package dev.isolato.tenancy;

import java.util.List;

/**
 * One pool of workload pods: the shared pool of a class (namespace {@code isolato-<class>}) or
 * the pool of a dedicated tenant (namespace {@code isolato-<class>-<tenant>}).
 *
 * @param sloClass class name
 * @param namespace namespace holding the pool's objects
 * @param dedicatedTenant the tenant owning the pool, or null for the shared pool
 * @param tenants live (not terminating) tenants served by the pool, sorted by id
 */
public record Pool(String sloClass, String namespace, String dedicatedTenant, List<Tenant> tenants) {
  public static final String PREFIX = "isolato-";

  public Pool {
    tenants = List.copyOf(tenants);
  }

  public static String sharedNamespace(String sloClass) {
    return PREFIX + sloClass;
  }

  public static String dedicatedNamespace(String sloClass, String tenantId) {
    return PREFIX + sloClass + "-" + tenantId;
  }

  public boolean dedicated() {
    return dedicatedTenant != null;
  }

  public String isolation() {
    return dedicated() ? TenantSpec.Isolation.dedicated.name() : TenantSpec.Isolation.shared.name();
  }
}
