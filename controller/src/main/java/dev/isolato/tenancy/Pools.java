package dev.isolato.tenancy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Groups a class's tenants into pools: one shared pool, one pool per dedicated tenant. */
public final class Pools {
  private Pools() {}

  /** Tenants that are being deleted are left out: they must disappear from every table. */
  public static List<Pool> of(String sloClass, List<Tenant> tenants) {
    List<Tenant> live =
        tenants.stream()
            .filter(t -> t.getMetadata().getDeletionTimestamp() == null)
            .sorted(Comparator.comparing(t -> t.getMetadata().getName()))
            .toList();
    List<Pool> pools = new ArrayList<>();
    pools.add(
        new Pool(
            sloClass,
            PoolNames.sharedNamespace(sloClass),
            null,
            live.stream().filter(t -> !isDedicated(t)).toList()));
    live.stream()
        .filter(Pools::isDedicated)
        .forEach(
            t -> {
              String id = t.getMetadata().getName();
              pools.add(new Pool(sloClass, PoolNames.dedicatedNamespace(id), id, List.of(t)));
            });
    return pools;
  }

  public static boolean isDedicated(Tenant t) {
    return t.getSpec().isolation == TenantSpec.Isolation.dedicated;
  }

  /** Namespace that serves a tenant. */
  public static String namespaceOf(Tenant t) {
    return isDedicated(t)
        ? PoolNames.dedicatedNamespace(t.getMetadata().getName())
        : PoolNames.sharedNamespace(t.getSpec().sloClass);
  }
}
