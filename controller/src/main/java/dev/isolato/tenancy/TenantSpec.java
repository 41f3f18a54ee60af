package dev.isolato.tenancy;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/** What a provider declares for one tenant. */
public class TenantSpec {
  @Required
  @Pattern(SpecLimits.DNS1123_LABEL)
  @JsonPropertyDescription("Name of the tenant's SloClass.")
  public String sloClass;

  @Required
  @Min(SpecLimits.MIN_RPS)
  @Max(SpecLimits.MAX_RPS)
  @JsonPropertyDescription("Committed maximum request rate (req/s).")
  public double committedRps;

  @Min(SpecLimits.MIN_BURST)
  @Max(SpecLimits.MAX_RPS)
  @JsonPropertyDescription("Token-bucket depth (requests); default: one second of committed rate.")
  public Double burst;

  @JsonPropertyDescription("Work of one request of this tenant.")
  public WorkloadProfile profile = new WorkloadProfile();

  @Default("shared")
  @JsonPropertyDescription("shared: the class namespace; dedicated: a namespace of its own.")
  public Isolation isolation = Isolation.shared;

  /** Where a tenant's pods run. Lower-case constants so JSON and CRD enums read naturally. */
  public enum Isolation {
    shared,
    dedicated
  }

  /** Stress work per request in saas-bench units (docs/saas-bench.md). */
  public static class WorkloadProfile {
    @Min(0)
    @Max(SpecLimits.MAX_PROFILE_CPU)
    @JsonPropertyDescription("CPU rounds of 10,000 xorshift steps.")
    public int cpu;

    @Min(0)
    @Max(SpecLimits.MAX_PROFILE_MEMORY)
    @JsonPropertyDescription("KiB allocated, written and read back.")
    public int memory;

    @Min(0)
    @Max(SpecLimits.MAX_PROFILE_IO)
    @JsonPropertyDescription("4 KiB blocks written.")
    public int io;

    public boolean fsync;
  }
}
