package dev.isolato.security;

import java.util.List;
import java.util.Map;

/** Who an authenticated request comes from: the three kinds of identity the API knows. */
public sealed interface Caller {
  /** For logs and problem details. */
  String name();

  /** A static provider-admin token (file or Secret): every call. */
  record Admin(String name) implements Caller {}

  /** A static tenant token: reads its own tenant, nothing else. */
  record TenantUser(String name, String tenantId) implements Caller {}

  /** A cluster identity from TokenReview: each call is a SubjectAccessReview. */
  record ClusterUser(String name, String uid, List<String> groups, Map<String, List<String>> extra)
      implements Caller {
    public ClusterUser {
      groups = groups == null ? List.of() : List.copyOf(groups);
      extra = extra == null ? Map.of() : Map.copyOf(extra);
    }
  }
}
