package dev.isolato.tenancy;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.function.Consumer;

/**
 * What the informer caches of Tenants keep (with {@link dev.isolato.kube.LeanItemStore}): every
 * copy shares one instance of each string that repeats across tenants (a class name, a phase, a
 * condition's type, reason, message and time: the class reconciler writes them for a class's
 * tenants at once), and the caches whose readers never read a status drop it. At 10,000 tenants in
 * three caches, strings were the largest part of the heap (docs/scale.md).
 */
public final class CachedTenants {
  private CachedTenants() {}

  /** For the class reconciler's cache: the whole tenant, its repeated strings shared. */
  public static final Consumer<Tenant> WHOLE = CachedTenants::share;

  /** For caches read for the spec and metadata only (the API's, the releaser's). */
  public static final Consumer<Tenant> WITHOUT_STATUS =
      t -> {
        t.setStatus(null);
        share(t);
      };

  static void share(Tenant t) {
    if (t.getSpec() != null) {
      t.getSpec().sloClass = intern(t.getSpec().sloClass);
    }
    TenantStatus s = t.getStatus();
    if (s == null) {
      return;
    }
    s.phase = intern(s.phase);
    s.namespace = intern(s.namespace);
    s.servingSince = intern(s.servingSince);
    if (s.conditions != null) {
      for (Condition c : s.conditions) {
        c.setType(intern(c.getType()));
        c.setStatus(intern(c.getStatus()));
        c.setReason(intern(c.getReason()));
        c.setMessage(intern(c.getMessage()));
        c.setLastTransitionTime(intern(c.getLastTransitionTime()));
      }
    }
  }

  private static String intern(String s) {
    return s == null ? null : s.intern();
  }
}
