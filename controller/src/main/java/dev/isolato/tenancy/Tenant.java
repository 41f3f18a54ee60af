package dev.isolato.tenancy;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A tenant of the SaaS. Its name is the tenant id. Tenants live in the controller's namespace
 * (isolato-system by default); the workload objects they cause live in the class namespaces.
 */
@Group(SloClass.GROUP)
@Version(SloClass.VERSION)
@Kind("Tenant")
@Plural("tenants")
@Singular("tenant")
// `kubectl get tenant`: where the tenant is, whether it is served and at what rate.
@AdditionalPrinterColumn(
    name = "Class",
    jsonPath = ".spec.sloClass",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Phase",
    jsonPath = ".status.phase",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "CommittedRps",
    jsonPath = ".spec.committedRps",
    type = AdditionalPrinterColumn.Type.NUMBER)
@AdditionalPrinterColumn(
    name = "AdmittedRps",
    jsonPath = ".status.admittedRps",
    type = AdditionalPrinterColumn.Type.NUMBER)
@AdditionalPrinterColumn(
    name = "Pool",
    jsonPath = ".status.namespace",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1)
public class Tenant extends CustomResource<TenantSpec, TenantStatus> implements Namespaced {
  /** Removed by the controller once the tenant is out of every table and namespace. */
  public static final String FINALIZER = "isolato.dev/cleanup";

  /** Epoch milliseconds at which the API accepted the tenant (for onboarding latency). */
  public static final String ACCEPTED_AT = "isolato.dev/accepted-at";
}
