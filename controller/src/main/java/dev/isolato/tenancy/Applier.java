package dev.isolato.tenancy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Server-side apply (field manager "isolato") that writes only when the live object lacks
 * some desired field: a reconcile that finds nothing to change makes zero write calls.
 */
public final class Applier {
  public static final String FIELD_MANAGER = "isolato";

  private final KubernetesClient client;

  public Applier(KubernetesClient client) {
    this.client = client;
  }

  /** Outcome of applying a set of objects: the live objects and which ones were written. */
  public record Result(Map<String, HasMetadata> live, List<String> written) {
    public boolean wrote(String kind) {
      return written.contains(kind);
    }

    public <T extends HasMetadata> T get(String kind, Class<T> type) {
      return type.cast(live.get(kind));
    }
  }

  public Result apply(List<HasMetadata> desired) {
    Map<String, HasMetadata> live = new LinkedHashMap<>();
    List<String> written = new java.util.ArrayList<>();
    for (HasMetadata d : desired) {
      HasMetadata actual = client.resource(d).get();
      HasMetadata want = floorReplicas(d, actual);
      if (actual != null && Subset.contains(json(actual), json(want))) {
        live.put(d.getKind(), actual);
        continue;
      }
      live.put(d.getKind(), client.resource(want).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply());
      written.add(d.getKind());
    }
    return new Result(live, List.copyOf(written));
  }

  /**
   * The plan's replica count is a floor: when the HPA has scaled the Deployment above it, keep
   * the larger count instead of fighting the autoscaler.
   */
  static HasMetadata floorReplicas(HasMetadata desired, HasMetadata actual) {
    if (desired instanceof Deployment want && actual instanceof Deployment have
        && have.getSpec() != null && have.getSpec().getReplicas() != null
        && want.getSpec().getReplicas() != null
        && have.getSpec().getReplicas() > want.getSpec().getReplicas()) {
      Deployment copy = new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder(want).build();
      copy.getSpec().setReplicas(have.getSpec().getReplicas());
      return copy;
    }
    return desired;
  }

  private JsonNode json(HasMetadata o) {
    JsonNode n = client.getKubernetesSerialization().convertValue(o, JsonNode.class);
    if (n instanceof ObjectNode obj) {
      obj.remove("status");
    }
    return n;
  }
}
