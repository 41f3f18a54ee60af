package dev.isolato.tenancy;

import java.util.List;

/**
 * One pool of workload pods: the shared pool of a class or the pool of a dedicated tenant, each in
 * its own namespace ({@link PoolNames}).
 *
 * @param sloClass class name
 * @param namespace namespace holding the pool's objects
 * @param dedicatedTenant the tenant owning the pool, or null for the shared pool
 * @param tenants live (not terminating) tenants served by the pool, sorted by id
 */
public record Pool(
    String sloClass, String namespace, String dedicatedTenant, List<Tenant> tenants) {
  public Pool {
    tenants = List.copyOf(tenants);
  }

  public boolean dedicated() {
    return dedicatedTenant != null;
  }

  public String isolation() {
    return dedicated() ? TenantSpec.Isolation.dedicated.name() : TenantSpec.Isolation.shared.name();
  }
}
