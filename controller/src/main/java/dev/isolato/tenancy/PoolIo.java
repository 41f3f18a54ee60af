package dev.isolato.tenancy;

import java.util.Collection;

/**
 * What a pool's pod objects need to know of its tenants' IO: whether the pool is IO-heavy (the IO
 * guard, {@link PodPlacement}) and the largest request's io (the derived scratch, {@link
 * PodLimits}). The class reconciler sees the tenants and writes these into the pool resource; the
 * pool reconciler builds the pods from that resource, which names its tenants but does not hold
 * them.
 *
 * @param heavy whether the tenants' committed writes or syncs make the pool IO-heavy
 * @param maxIo the largest io (4 KiB blocks per request) of the tenants, 0 for none
 */
public record PoolIo(boolean heavy, int maxIo) {
  public static PoolIo of(Collection<Tenant> tenants) {
    return new PoolIo(PodPlacement.ioHeavy(tenants), PodLimits.maxIo(tenants));
  }
}
