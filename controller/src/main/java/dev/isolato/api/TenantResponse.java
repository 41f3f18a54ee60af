package dev.isolato.api;

import dev.isolato.tenancy.Tenant;
import dev.isolato.tenancy.TenantSpec;
import dev.isolato.tenancy.TenantStatus;
import java.util.List;

/** A tenant as the API shows it: its settings, where it is served and its conditions. */
public record TenantResponse(
    String tenantId,
    String sloClass,
    double committedRps,
    Double burst,
    TenantRequest.Profile profile,
    String isolation,
    String resourceVersion,
    String createdAt,
    TenantStatus status) {

  static TenantResponse of(Tenant t) {
    TenantSpec s = t.getSpec();
    return new TenantResponse(
        t.getMetadata().getName(),
        s.sloClass,
        s.committedRps,
        s.burst,
        new TenantRequest.Profile(s.profile.cpu, s.profile.memory, s.profile.io, s.profile.fsync),
        s.isolation.name(),
        t.getMetadata().getResourceVersion(),
        t.getMetadata().getCreationTimestamp(),
        t.getStatus());
  }

  /** One page of a list; pass {@code continueToken} back as {@code continue} for the next. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "TenantPage")
  public record Page(List<TenantResponse> items, String continueToken) {}
}
