package dev.isolato.tenancy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/**
 * One field of a class's status written by server-side apply under a loop's own field manager
 * (forced: the field is that loop's alone), so the class reconciler's and other loops' fields stay
 * theirs.
 */
public final class ClassStatusApply {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ClassStatusApply() {}

  public static void apply(
      KubernetesClient client, SloClass cls, String fieldManager, String field, JsonNode value) {
    ObjectNode patch = JSON.createObjectNode();
    patch.put("apiVersion", cls.getApiVersion()).put("kind", cls.getKind());
    patch.putObject("metadata").put("name", cls.getMetadata().getName());
    patch.putObject("status").set(field, value);
    client
        .resources(SloClass.class)
        .withName(cls.getMetadata().getName())
        .subresource("status")
        .patch(
            new PatchContext.Builder()
                .withPatchType(PatchType.SERVER_SIDE_APPLY)
                .withFieldManager(fieldManager)
                .withForce(true)
                .build(),
            patch.toString());
  }
}
