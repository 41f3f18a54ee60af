package dev.isolato.gatling.plan;

/** One tenant's constant arrival rate (requests/s, open model) during one step. */
public record TenantLoad(String tenantId, double rps) {
  public TenantLoad {
    if (tenantId == null || tenantId.isBlank()) {
      throw new IllegalArgumentException("tenantId must not be blank");
    }
    if (!(rps > 0) || Double.isInfinite(rps)) {
      throw new IllegalArgumentException("rps of tenant " + tenantId + " must be > 0: " + rps);
    }
  }
}
