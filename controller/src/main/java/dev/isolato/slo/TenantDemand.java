package dev.isolato.slo;

/** A tenant's committed maximum request rate. */
public record TenantDemand(String tenantId, double committedRps) {}
