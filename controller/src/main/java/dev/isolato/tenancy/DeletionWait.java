package dev.isolato.tenancy;

import java.util.List;

/** What a deleted class that still has tenants says about them (its Ready condition). */
final class DeletionWait {
  /** Ids named in the message; the count is always complete. */
  static final int NAMED = 10;

  private DeletionWait() {}

  static List<String> liveTenants(List<String> ids) {
    return ids.stream().sorted().toList();
  }

  static String message(List<String> ids) {
    String named =
        String.join(", ", ids.subList(0, Math.min(NAMED, ids.size())))
            + (ids.size() > NAMED ? " and " + (ids.size() - NAMED) + " more" : "");
    return "deleted; waits for its "
        + ids.size()
        + " tenant"
        + (ids.size() == 1 ? "" : "s")
        + " to be offboarded (DELETE /api/v1/tenants/<id>): "
        + named;
  }
}
