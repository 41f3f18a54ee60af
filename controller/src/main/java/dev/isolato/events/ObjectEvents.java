package dev.isolato.events;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.UUID;

/**
 * Records a Kubernetes Event about one object (core/v1, what {@code kubectl describe} and {@code
 * kubectl get events} show), for the controller's loops that speak up when a verdict changes.
 */
public final class ObjectEvents {
  private ObjectEvents() {}

  /**
   * One Event on {@code about}, in its namespace; a cluster-scoped object's in {@code default} (the
   * API server refuses any other, and {@code kubectl describe} looks there).
   *
   * @param type {@code Normal} or {@code Warning}
   * @param component the loop that reports it (also its field manager)
   */
  public static void record(
      KubernetesClient client,
      HasMetadata about,
      String reason,
      String type,
      String message,
      String component,
      Instant now) {
    String at = now.toString();
    String namespace =
        about.getMetadata().getNamespace() == null ? "default" : about.getMetadata().getNamespace();
    client
        .v1()
        .events()
        .inNamespace(namespace)
        .resource(
            new EventBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(
                    about.getMetadata().getName()
                        + "."
                        + UUID.randomUUID().toString().substring(0, 8))
                .endMetadata()
                .withInvolvedObject(
                    new ObjectReferenceBuilder()
                        .withApiVersion(about.getApiVersion())
                        .withKind(about.getKind())
                        .withNamespace(about.getMetadata().getNamespace())
                        .withName(about.getMetadata().getName())
                        .withUid(about.getMetadata().getUid())
                        .build())
                .withReason(reason)
                .withType(type)
                .withMessage(message)
                .withFirstTimestamp(at)
                .withLastTimestamp(at)
                .withCount(1)
                .withNewSource()
                .withComponent(component)
                .endSource()
                .withReportingComponent(component)
                .build())
        .create();
  }
}
