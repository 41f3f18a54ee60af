package dev.isolato.tenancy;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * An SLO class (cluster-scoped): the latency target its tenants are promised, the pod shape
 * and bounds of its pool, and (in status) the measured capacity and the current plan.
 */
@Group(SloClass.GROUP)
@Version(SloClass.VERSION)
@Kind("SloClass")
@Plural("sloclasses")
@Singular("sloclass")
@ShortNames("slo")
public class SloClass extends CustomResource<SloClassSpec, SloClassStatus> {
  public static final String GROUP = "isolato.dev";
  public static final String VERSION = "v1alpha1";
}
