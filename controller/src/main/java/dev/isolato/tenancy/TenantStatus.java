package dev.isolato.tenancy;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/** Where a tenant's onboarding stands. */
public class TenantStatus {
  /** Pending (class missing), Provisioning, Serving, Rejected, Terminating. */
  public String phase;
  public Long observedGeneration;
  /** Rate the workload admits before throttling (req/s). */
  public Double admittedRps;
  /** RFC 3339 time since which the tenant is served. */
  public String servingSince;
  /** Namespace whose Service serves the tenant. */
  public String namespace;
  public List<Condition> conditions = new ArrayList<>();
}
