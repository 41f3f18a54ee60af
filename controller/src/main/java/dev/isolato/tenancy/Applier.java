package dev.isolato.tenancy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Server-side apply (field manager "isolato") that writes only when the live object lacks
 * some desired field: a reconcile that finds nothing to change makes zero write calls.
 *
 * <p>Reads are kept off the hot path too. Objects with an informer (the Deployment) are
 * compared with the cached copy. For the others the applier remembers what it last applied or
 * verified: an unchanged desired object is skipped without a GET for {@link #VERIFIED_FOR},
 * after which it is read and compared again, so drift is repaired within that time and a
 * restarted controller (empty memory) verifies everything once.
 *
 * <p>Nothing is adopted: an existing object is changed only when {@link Ownership} says it is
 * the desired owner's, and an absent namespace is created (not applied), so one created by
 * someone else in the meantime makes the create fail instead of being taken over.
 */
public final class Applier {
  public static final String FIELD_MANAGER = "isolato";
  /** How long a verified object is trusted without reading it again. */
  static final Duration VERIFIED_FOR = Duration.ofSeconds(30);

  private final KubernetesClient client;
  private final Clock clock;
  private final Map<String, Verified> verified = new ConcurrentHashMap<>();

  private record Verified(JsonNode desired, Instant at) {}

  /** An object of the desired name exists and is not the desired owner's: nothing was written to it. */
  public static final class NotOwned extends RuntimeException {
    public NotOwned(String message) {
      super(message);
    }
  }

  public Applier(KubernetesClient client) {
    this(client, Clock.systemUTC());
  }

  Applier(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
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

  /** Applies {@code desired}, reading every object from the API server when not remembered. */
  public Result apply(List<HasMetadata> desired) {
    return apply(desired, d -> null);
  }

  /**
   * Applies {@code desired}; {@code cached} returns an informer's copy of an object (or null
   * when there is none), which replaces the GET.
   */
  public Result apply(List<HasMetadata> desired, Function<HasMetadata, HasMetadata> cached) {
    Map<String, HasMetadata> live = new LinkedHashMap<>();
    List<String> written = new java.util.ArrayList<>();
    Instant now = clock.instant();
    for (HasMetadata d : desired) {
      String key = key(d);
      HasMetadata actual = cached.apply(d);
      if (actual == null) {
        Verified v = verified.get(key);
        if (v != null && v.desired().equals(json(d)) && now.isBefore(v.at().plus(VERIFIED_FOR))) {
          live.put(d.getKind(), d);
          continue;
        }
        actual = client.resource(d).get();
      }
      if (actual == null && d instanceof Namespace) {
        actual = createNamespace(d);
      }
      requireOwned(d, actual);
      HasMetadata want = floorReplicas(d, actual);
      if (actual != null && Subset.contains(json(actual), json(want))) {
        live.put(d.getKind(), actual);
        verified.put(key, new Verified(json(d), now));
        continue;
      }
      verified.remove(key);
      live.put(d.getKind(), client.resource(want).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply());
      verified.put(key, new Verified(json(d), now));
      written.add(d.getKind());
    }
    return new Result(live, List.copyOf(written));
  }

  /** Creates an absent namespace; one that appeared meanwhile is returned as it is (and checked). */
  private HasMetadata createNamespace(HasMetadata d) {
    try {
      return client.resource(d).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      return client.resource(d).get();
    }
  }

  /** Throws {@link NotOwned} when {@code actual} exists and is not owned by {@code desired}'s owner. */
  static void requireOwned(HasMetadata desired, HasMetadata actual) {
    if (actual == null || desired.getMetadata().getOwnerReferences().isEmpty()) {
      return;
    }
    OwnerReference owner = desired.getMetadata().getOwnerReferences().get(0);
    List<String> uids = actual.getMetadata().getOwnerReferences() == null ? List.of()
        : actual.getMetadata().getOwnerReferences().stream().map(OwnerReference::getUid).toList();
    Ownership.conflict(actual.getKind(), actual.getMetadata().getName(), actual.getMetadata().getLabels(),
        uids, owner.getName(), owner.getUid()).ifPresent(m -> {
          throw new NotOwned(m);
        });
  }

  /** Forgets what was verified in {@code namespace} (and the namespace itself), e.g. on its deletion. */
  public void forget(String namespace) {
    verified.keySet().removeIf(k -> k.startsWith(namespace + "/") || k.equals("/Namespace/" + namespace));
  }

  private static String key(HasMetadata o) {
    String ns = o.getMetadata().getNamespace() == null ? "" : o.getMetadata().getNamespace();
    return ns + "/" + o.getKind() + "/" + o.getMetadata().getName();
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
