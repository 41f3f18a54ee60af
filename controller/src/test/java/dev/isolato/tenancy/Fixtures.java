package dev.isolato.tenancy;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/** Small CR instances for unit tests. */
public final class Fixtures {
  private Fixtures() {}

  public static SloClass sloClass(String name, int min, int max, double cutoff) {
    SloClass c = new SloClass();
    c.setMetadata(
        new ObjectMetaBuilder().withName(name).withUid("uid-" + name).withGeneration(1L).build());
    SloClassSpec s = new SloClassSpec();
    s.latency.targetMs = 50;
    s.resources.cpu = "500m";
    s.resources.memory = "128Mi";
    s.priority = 100;
    s.minReplicas = min;
    s.maxReplicas = max;
    s.pivotPercent = 65;
    s.perPodCutoffRps = cutoff;
    c.setSpec(s);
    return c;
  }

  public static Tenant tenant(String id, String cls, double rps, TenantSpec.Isolation isolation) {
    Tenant t = new Tenant();
    t.setMetadata(
        new ObjectMetaBuilder()
            .withName(id)
            .withNamespace("isolato-system")
            .withGeneration(1L)
            .build());
    TenantSpec s = new TenantSpec();
    s.sloClass = cls;
    s.committedRps = rps;
    s.isolation = isolation;
    s.profile.cpu = 3;
    s.profile.memory = 64;
    t.setSpec(s);
    return t;
  }
}
