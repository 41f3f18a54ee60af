package dev.isolato.tenancy;

import java.util.Collection;

/**
 * A pool pod's share of the node's disk (issue 37 item 3), derived from its tenants' IO profiles.
 * Pure: numbers in, numbers out.
 *
 * <p>saas-bench writes a request's {@code io} 4 KiB blocks at offsets 0.. of its worker thread's
 * scratch file in the emptyDir, so the file never exceeds the largest request, and a pod runs
 * ceil(CPU limit) workers (docs/saas-bench.md). The scratch space a pod can legitimately use is
 * therefore {@code workers × max(io) × 4 KiB}. The emptyDir's {@code sizeLimit} is
 *
 * <pre>
 *   scratch = nextPowerOfTwo(max(MIN_SCRATCH, SAFETY × workers × max(io over the pool's tenants) × 4 KiB))
 * </pre>
 *
 * unless the class declares {@code spec.storage.scratch}. The power of two keeps the Deployment
 * (and so the pods) unchanged while tenants with similar profiles come and go: only a tenant that
 * needs more than twice the space rolls the pool. The container's ephemeral-storage request and
 * limit (equal, like its CPU and memory) is {@code scratch + LOG_ALLOWANCE}: the kubelet sums the
 * containers' limits into the pod's, and the pod's usage is its containers' writable layers
 * (nothing: the root filesystem is read-only) and logs plus its emptyDir.
 */
public record PodLimits(long scratchBytes, long ephemeralBytes) {
  public static final long MIB = 1024L * 1024;

  /** The saas-bench block size of one {@code io} unit. */
  public static final long IO_BLOCK = 4096;

  /** Space for the saas-bench files a pool pod writes before any tenant's request. */
  public static final long MIN_SCRATCH = 16 * MIB;

  /** Room above the measured need: a table update can raise a tenant's io before the rollout. */
  public static final int SAFETY = 2;

  /**
   * Container logs: the kubelet rotates at containerLogMaxSize (10 Mi) and keeps
   * containerLogMaxFiles (5), so 50 Mi at most, rounded up.
   */
  public static final long LOG_ALLOWANCE = 64 * MIB;

  /** The limits of a pod with {@code cpuLimitMillis} serving tenants whose largest io is given. */
  public static PodLimits derived(long cpuLimitMillis, int maxIo) {
    long workers = Math.max(1, (cpuLimitMillis + 999) / 1000);
    long need = SAFETY * workers * Math.max(0, maxIo) * IO_BLOCK;
    return withScratch(nextPowerOfTwo(Math.max(MIN_SCRATCH, need)));
  }

  /** The limits around a scratch size the class declared. */
  public static PodLimits withScratch(long scratchBytes) {
    return new PodLimits(scratchBytes, scratchBytes + LOG_ALLOWANCE);
  }

  /** The largest io of the tenants (0 for none). */
  public static int maxIo(Collection<Tenant> tenants) {
    return tenants.stream()
        .filter(t -> t.getSpec() != null && t.getSpec().profile != null)
        .mapToInt(t -> t.getSpec().profile.io)
        .max()
        .orElse(0);
  }

  /** Whole mebibytes in Kubernetes notation (every size here is a whole number of them). */
  public static String quantity(long bytes) {
    return ((bytes + MIB - 1) / MIB) + "Mi";
  }

  static long nextPowerOfTwo(long n) {
    long p = Long.highestOneBit(n);
    return p == n ? n : p << 1;
  }
}
