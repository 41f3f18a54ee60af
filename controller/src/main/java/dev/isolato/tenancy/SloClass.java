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
 * An SLO class (cluster-scoped): the latency target its tenants are promised, the pod shape and
 * bounds of its pool, and (in status) the measured capacity and the current plan.
 */
@Group(SloClass.GROUP)
@Version(SloClass.VERSION)
@Kind("SloClass")
@Plural("sloclasses")
@Singular("sloclass")
@ShortNames("slo")
// `kubectl get sloclass`: the promise, the capacity it rests on, the plan and whether it is applied
// (the generator orders columns by JSON path).
@AdditionalPrinterColumn(
    name = "Pct",
    jsonPath = ".spec.latency.percentile",
    type = AdditionalPrinterColumn.Type.NUMBER)
@AdditionalPrinterColumn(
    name = "TargetMs",
    jsonPath = ".spec.latency.targetMs",
    type = AdditionalPrinterColumn.Type.NUMBER)
@AdditionalPrinterColumn(
    name = "CutoffRps",
    jsonPath = ".status.plan.perPodCutoffRps",
    type = AdditionalPrinterColumn.Type.NUMBER,
    getDescription =
        "per-pod cut-off the plan uses: the measured one after a calibration, else the declared one")
@AdditionalPrinterColumn(
    name = "DeclaredRps",
    jsonPath = ".spec.perPodCutoffRps",
    type = AdditionalPrinterColumn.Type.NUMBER,
    priority = 1)
@AdditionalPrinterColumn(
    name = "MeasuredRps",
    jsonPath = ".status.perPodCutoffRps",
    type = AdditionalPrinterColumn.Type.NUMBER,
    priority = 1,
    getDescription = "measured per-pod cut-off (empty until a calibration)")
@AdditionalPrinterColumn(
    name = "Replicas",
    jsonPath = ".status.plan.replicas",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Tenants",
    jsonPath = ".status.tenants",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Ready",
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Calibrated",
    jsonPath = ".status.conditions[?(@.type==\"Calibrated\")].status",
    type = AdditionalPrinterColumn.Type.STRING,
    getDescription = "False: planned on the declared cut-off (Uncalibrated)")
@AdditionalPrinterColumn(
    name = "Calibration",
    jsonPath = ".status.inContext.phase",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1,
    getDescription = "the latest in-context calibration: Pending, Running, Succeeded or Failed")
@AdditionalPrinterColumn(
    name = "SloHeld",
    jsonPath = ".status.conditions[?(@.type==\"SloHeld\")].status",
    type = AdditionalPrinterColumn.Type.STRING,
    getDescription = "whether live traffic holds the latency target (empty: not verified)")
@AdditionalPrinterColumn(
    name = "EffectiveRps",
    jsonPath = ".status.capacity.effectivePerPodRps",
    type = AdditionalPrinterColumn.Type.NUMBER,
    priority = 1,
    getDescription = "per-pod cut-off in force: calibrated unless live evidence lowered it")
@AdditionalPrinterColumn(
    name = "LiveRps",
    jsonPath = ".status.capacity.live.perPodRps",
    type = AdditionalPrinterColumn.Type.NUMBER,
    priority = 1,
    getDescription = "per-pod cut-off estimated from live traffic")
public class SloClass extends CustomResource<SloClassSpec, SloClassStatus> {
  public static final String GROUP = "isolato.dev";
  public static final String VERSION = "v1alpha1";

  /**
   * The class reconciler's finalizer (JOSDK removes it once the reconciler's cleanup is done); the
   * same name as the tenant's ({@link Tenant#FINALIZER}) because classes of earlier versions carry
   * it.
   */
  public static final String FINALIZER = "isolato.dev/cleanup";
}
