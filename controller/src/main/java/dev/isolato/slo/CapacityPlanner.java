package dev.isolato.slo;

/**
 * The seam between reconciliation and the SLO engine: how many replicas a class needs for its
 * tenants' committed rates, and which rate each tenant is admitted at.
 */
public interface CapacityPlanner {
  CapacityPlan plan(PlanRequest request);
}
