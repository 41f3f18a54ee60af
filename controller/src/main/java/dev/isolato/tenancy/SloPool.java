package dev.isolato.tenancy;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One pool of a class (cluster-scoped, internal): written by the class reconciler, one per shared
 * pool and per dedicated tenant, named as the pool's namespace and owned by its class. The pool
 * reconciler brings the pool's objects to what its spec says and reports in status what its pods
 * hold. Cluster-scoped because it stands for objects that are: the pool's Namespace and its class's
 * PriorityClass.
 */
@Group(SloClass.GROUP)
@Version(SloClass.VERSION)
@Kind("SloPool")
@Plural("slopools")
@Singular("slopool")
@ShortNames("pool")
@AdditionalPrinterColumn(
    name = "Class",
    jsonPath = ".spec.sloClass",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "CutoffRps",
    jsonPath = ".spec.perPodCutoffRps",
    type = AdditionalPrinterColumn.Type.NUMBER,
    getDescription = "per-pod cut-off the plan of this pool rests on")
@AdditionalPrinterColumn(
    name = "Replicas",
    jsonPath = ".status.replicas",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "ReadyReplicas",
    jsonPath = ".status.readyReplicas",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Ready",
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Tenant",
    jsonPath = ".spec.dedicatedTenant",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1)
public class SloPool extends CustomResource<SloPoolSpec, SloPoolStatus> {
  /** The tenant table its pods are given (ConfigMap and push alike): the spec's, revised. */
  public String servedTable() {
    return TenantTable.withRevision(getSpec().table, getMetadata().getGeneration());
  }

  /** The pool this resource stands for, as the class's tenants were grouped into it. */
  public Pool pool() {
    return new Pool(
        getSpec().sloClass,
        getMetadata().getName(),
        getSpec().dedicatedTenant,
        java.util.List.of());
  }
}
