package dev.isolato.tenancy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether an existing object is Isolato's to change or delete: it must carry Isolato's managed-by
 * label AND an ownerReference to the very class (by uid) that wants it. Anything else (a namespace
 * a person created, another class's pool, the controller's own namespace) is never adopted or
 * deleted.
 */
public final class Ownership {
  private Ownership() {}

  /**
   * Why the object described by {@code labels} and {@code ownerUids} is not the class's, or empty
   * when it is.
   */
  public static Optional<String> conflict(
      String kind,
      String name,
      Map<String, String> labels,
      Collection<String> ownerUids,
      String sloClass,
      String classUid) {
    boolean managed =
        labels != null && PoolObjects.MANAGER.equals(labels.get(PoolObjects.MANAGED_BY));
    if (!managed) {
      return Optional.of(
          kind
              + " "
              + name
              + " exists and is not Isolato's (no label "
              + PoolObjects.MANAGED_BY
              + "="
              + PoolObjects.MANAGER
              + "); Isolato will not adopt or delete it");
    }
    if (ownerUids == null || !ownerUids.contains(classUid)) {
      return Optional.of(
          kind
              + " "
              + name
              + " exists and is not owned by SloClass "
              + sloClass
              + " (uid "
              + classUid
              + "); Isolato will not adopt or delete it");
    }
    return Optional.empty();
  }

  /**
   * Throws {@link NotOwned} unless {@code live} is absent or the class's (label and owner uid):
   * checked before every change or delete of an existing object.
   */
  public static void require(HasMetadata live, String sloClass, String classUid) {
    if (live == null) {
      return;
    }
    List<String> uids =
        live.getMetadata().getOwnerReferences() == null
            ? List.of()
            : live.getMetadata().getOwnerReferences().stream().map(OwnerReference::getUid).toList();
    conflict(
            live.getKind(),
            live.getMetadata().getName(),
            live.getMetadata().getLabels(),
            uids,
            sloClass,
            classUid)
        .ifPresent(
            m -> {
              throw new NotOwned(m);
            });
  }

  /** {@link #require(HasMetadata, String, String)} for the class {@code cls}. */
  public static void require(HasMetadata live, SloClass cls) {
    require(live, cls.getMetadata().getName(), cls.getMetadata().getUid());
  }
}
