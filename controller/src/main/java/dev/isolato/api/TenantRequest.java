package dev.isolato.api;

import io.swagger.v3.oas.annotations.media.Schema;

/** Body of POST/PUT /api/v1/tenants. */
@Schema(description = "A tenant to onboard (or its new settings)")
public record TenantRequest(
    @Schema(description = "DNS-1123 label, at most 34 characters", example = "acme") String tenantId,
    @Schema(description = "Name of an existing SloClass", example = "gold") String sloClass,
    @Schema(description = "Committed maximum request rate (req/s)", example = "20") Double committedRps,
    @Schema(description = "Token-bucket depth (requests); default one second of committedRps") Double burst,
    Profile profile,
    @Schema(description = "shared (class namespace, default) or dedicated (own namespace)", allowableValues = {"shared", "dedicated"}) String isolation) {

  /** Work of one request in saas-bench units. */
  public record Profile(
      @Schema(description = "CPU rounds of 10,000 xorshift steps (0..100000)") Integer cpu,
      @Schema(description = "KiB touched per request (0..262144)") Integer memory,
      @Schema(description = "4 KiB blocks written per request (0..16384)") Integer io,
      Boolean fsync) {}
}
