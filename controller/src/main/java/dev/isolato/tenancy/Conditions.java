package dev.isolato.tenancy;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.util.List;

/** Kubernetes-style conditions whose transition time survives as long as the status holds. */
public final class Conditions {
  private Conditions() {}

  public static Condition of(
      List<Condition> previous,
      String type,
      boolean ok,
      String reason,
      String message,
      Instant now) {
    String status = ok ? "True" : "False";
    String since =
        previous == null
            ? null
            : previous.stream()
                .filter(c -> type.equals(c.getType()) && status.equals(c.getStatus()))
                .map(Condition::getLastTransitionTime)
                .findFirst()
                .orElse(null);
    return new ConditionBuilder()
        .withType(type)
        .withStatus(status)
        .withReason(reason)
        .withMessage(message)
        .withLastTransitionTime(since != null ? since : now.toString())
        .build();
  }
}
