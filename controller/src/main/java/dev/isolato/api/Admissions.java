package dev.isolato.api;

import dev.isolato.slo.AdmissionLimit;
import dev.isolato.slo.TenantDemand;
import dev.isolato.tenancy.CalibrationStatusMapper;
import dev.isolato.tenancy.ClassPlans;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.Tenant;
import dev.isolato.tenancy.TenantSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/**
 * Capacity admission of onboardings and rate changes, one class at a time: the decision is made
 * under the class's lock and reserves the tenant's rate before the lock is released, so the write
 * (an API round trip) runs outside it and concurrent onboardings of one class overlap; what this
 * JVM wrote, or is writing, is counted at once (read your writes), not only when the watch of
 * {@link TenantIndex} delivers it. The limit is {@link AdmissionLimit} of the same {@link
 * ClassPlans#request} the reconciler plans with.
 *
 * <p>One JVM only: two controller replicas serving the API can each admit into the same remaining
 * capacity within one watch delay (docs/api.md, "Admission").
 */
@Component
public class Admissions {
  /**
   * How long a write of this JVM is counted beside the watch's copy (far above the watch's lag).
   */
  static final long OVERLAY_NANOS = Duration.ofSeconds(30).toNanos();

  private final TenantIndex index;
  private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

  /** Tenants this JVM wrote lately, by id. */
  private final Map<String, Written> written = new ConcurrentHashMap<>();

  /**
   * Writes under way, one entry per admitted call (a repeated POST of one id is a second entry, so
   * the one that fails drops its own reservation, never the other's).
   */
  private final Map<Object, Written> reserved = new ConcurrentHashMap<>();

  private record Written(
      String tenantId,
      String sloClass,
      boolean dedicated,
      double committedRps,
      String resourceVersion,
      long at) {}

  public Admissions(TenantIndex index) {
    this.index = index;
  }

  /**
   * Runs {@code write} (the create or update of tenant {@code tenantId} with {@code spec}) when the
   * class can still take the tenant's rate; 422 otherwise.
   */
  public Tenant admit(SloClass cls, String tenantId, TenantSpec spec, Supplier<Tenant> write) {
    String name = cls.getMetadata().getName();
    boolean dedicated = spec.isolation == TenantSpec.Isolation.dedicated;
    Object ticket = new Object();
    ReentrantLock lock = locks.computeIfAbsent(name, n -> new ReentrantLock());
    lock.lock();
    try {
      List<TenantDemand> others = dedicated ? List.of() : sharedTenants(name, tenantId);
      AdmissionLimit limit = AdmissionLimit.of(ClassPlans.request(cls, others));
      if (!limit.admits(spec.committedRps)) {
        throw exceeded(cls, limit, spec.committedRps);
      }
      reserved.put(
          ticket,
          new Written(tenantId, name, dedicated, spec.committedRps, null, System.nanoTime()));
    } finally {
      lock.unlock();
    }
    try {
      Tenant t = write.get();
      written.put(
          tenantId,
          new Written(
              tenantId,
              name,
              dedicated,
              spec.committedRps,
              t.getMetadata().getResourceVersion(),
              System.nanoTime()));
      return t;
    } finally {
      // after the written entry is in place: the rate is counted throughout
      reserved.remove(ticket);
    }
  }

  /** See {@link TenantIndex#sloClass}. */
  public java.util.Optional<SloClass> watchedClass(String name) {
    return index.sloClass(name);
  }

  /** See {@link TenantIndex#mayHave}. */
  public boolean mayExist(String tenantId) {
    return index.mayHave(tenantId);
  }

  /** A tenant this JVM deleted no longer holds capacity. */
  public void forget(String tenantId) {
    written.remove(tenantId);
  }

  /**
   * The live shared tenants of a class except {@code tenantId}: the watch's copy, with this JVM's
   * recent writes the copy has not caught up with (the larger rate counts).
   */
  List<TenantDemand> sharedTenants(String sloClass, String tenantId) {
    Map<String, Double> rates = new LinkedHashMap<>();
    Map<String, String> versions = new java.util.HashMap<>();
    for (Tenant t : index.all()) {
      if (sloClass.equals(t.getSpec().sloClass)
          && t.getSpec().isolation != TenantSpec.Isolation.dedicated
          && t.getMetadata().getDeletionTimestamp() == null) {
        rates.put(t.getMetadata().getName(), t.getSpec().committedRps);
        versions.put(t.getMetadata().getName(), t.getMetadata().getResourceVersion());
      }
    }
    long now = System.nanoTime();
    written
        .entrySet()
        .removeIf(
            e ->
                now - e.getValue().at() > OVERLAY_NANOS
                    || e.getValue().resourceVersion().equals(versions.get(e.getKey())));
    for (Written w :
        java.util.stream.Stream.concat(written.values().stream(), reserved.values().stream())
            .toList()) {
      if (w.sloClass().equals(sloClass) && !w.dedicated()) {
        rates.merge(w.tenantId(), w.committedRps(), Math::max);
      }
    }
    rates.remove(tenantId);
    List<TenantDemand> demands = new ArrayList<>(rates.size());
    rates.forEach((id, rps) -> demands.add(new TenantDemand(id, rps)));
    return demands;
  }

  private static ApiException exceeded(SloClass cls, AdmissionLimit limit, double asked) {
    Map<String, Object> props =
        new LinkedHashMap<>(ProblemAdvice.remaining(limit.remainingRps(), limit.ceilingRps()));
    props.put("field", "committedRps");
    String live = "";
    if (CalibrationStatusMapper.liveLimit(cls).isPresent()) {
      // the class delivers less than calibrated where it runs: say so, with both figures
      props.put("liveCapacityRps", limit.ceilingRps());
      props.put(
          "calibratedCapacityRps",
          cls.getSpec().maxReplicas * CalibrationStatusMapper.calibratedPerPodCutoff(cls));
      live =
          String.format(
              "; live capacity measured on the pods' traffic, calibrated %.1f req/s per pod",
              CalibrationStatusMapper.calibratedPerPodCutoff(cls));
    }
    return new ApiException(
        org.springframework.http.HttpStatus.UNPROCESSABLE_ENTITY,
        "Capacity exceeded",
        String.format(
            "class '%s' can admit %.1f more req/s (capacity %.1f = %d pods × %.1f req/s per pod, %s%s), asked for %.1f",
            cls.getMetadata().getName(),
            limit.remainingRps(),
            limit.ceilingRps(),
            cls.getSpec().maxReplicas,
            limit.ceilingRps() / cls.getSpec().maxReplicas,
            PlanView.source(cls),
            live,
            asked),
        props);
  }
}
