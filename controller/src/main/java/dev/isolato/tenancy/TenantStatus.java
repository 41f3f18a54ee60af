package dev.isolato.tenancy;

import com.fasterxml.jackson.annotation.JsonInclude;
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

  /**
   * What the tenant profiler measured (issue 12): written only by the profiler (field manager
   * {@code isolato-profiler}); the reconciler's status writes leave it out.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public RateProfile profile;

  /**
   * The tenant's behaviour from its offered rate against its commitment. Unknown fields are left
   * out, not sent as null: the schema types them as numbers and the API server refuses a null.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class RateProfile {
    /** abiding, aggressive (above its commitment), passive (far below), or unknown. */
    public String behaviour;

    /**
     * Rate the tenant offered over the window (req/s, refused requests included); absent when
     * unknown.
     */
    public Double offeredRps;

    public double committedRps;
    public long windowSeconds;
    public String reason;

    /** RFC 3339 time since which the behaviour holds. */
    public String since;

    /** RFC 3339 time of the measurement. */
    public String measuredAt;
  }
}
