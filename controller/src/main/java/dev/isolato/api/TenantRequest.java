package dev.isolato.api;

import static dev.isolato.tenancy.SpecLimits.DNS1123_LABEL;
import static dev.isolato.tenancy.SpecLimits.MAX_PROFILE_CPU;
import static dev.isolato.tenancy.SpecLimits.MAX_PROFILE_IO;
import static dev.isolato.tenancy.SpecLimits.MAX_PROFILE_MEMORY;
import static dev.isolato.tenancy.SpecLimits.MAX_RPS;
import static dev.isolato.tenancy.SpecLimits.MIN_BURST;
import static dev.isolato.tenancy.SpecLimits.MIN_RPS;

import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Body of POST/PUT /api/v1/tenants. The constraint annotations are the ones the OpenAPI document
 * shows ({@link SchemaConstraints}); {@link Validation} enforces the same bounds.
 */
@Schema(description = "A tenant to onboard (or its new settings)")
public record TenantRequest(
    @Required
        @Pattern(DNS1123_LABEL)
        @Size(min = 1, max = Validation.MAX_TENANT_ID)
        @Schema(
            description = "DNS-1123 label; on PUT it may be left out (it must match the path)",
            example = "acme")
        String tenantId,
    @Required
        @Pattern(DNS1123_LABEL)
        @Size(min = 1, max = Validation.MAX_CLASS_NAME)
        @Schema(description = "Name of an existing SloClass", example = "gold")
        String sloClass,
    @Required
        @Min(MIN_RPS)
        @Max(MAX_RPS)
        @Schema(description = "Committed maximum request rate (req/s)", example = "20")
        Double committedRps,
    @Min(MIN_BURST)
        @Max(MAX_RPS)
        @Schema(description = "Token-bucket depth (requests); default one second of committedRps")
        Double burst,
    Profile profile,
    @Schema(
            description = "shared (class namespace, default) or dedicated (own namespace)",
            allowableValues = {"shared", "dedicated"})
        String isolation) {

  /** Work of one request in saas-bench units. */
  public record Profile(
      @Min(0) @Max(MAX_PROFILE_CPU) @Schema(description = "CPU rounds of 10,000 xorshift steps")
          Integer cpu,
      @Min(0) @Max(MAX_PROFILE_MEMORY) @Schema(description = "KiB touched per request")
          Integer memory,
      @Min(0) @Max(MAX_PROFILE_IO) @Schema(description = "4 KiB blocks written per request")
          Integer io,
      Boolean fsync) {}
}
