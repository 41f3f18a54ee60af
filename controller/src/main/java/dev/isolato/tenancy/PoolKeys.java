package dev.isolato.tenancy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.PrimaryToSecondaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool master keys in the Secret {@value #SECRET} of the controller's namespace (keys {@value
 * #CURRENT} and {@value #PREVIOUS}). Created when missing; rotated when an operator annotates it
 * with {@value #ROTATE_ANNOTATION} (any value): the current key becomes the previous one and a new
 * random key the current one. The update is conditional on the Secret's resourceVersion, so
 * concurrent reconciles rotate once.
 */
public final class PoolKeys {
  private static final Logger log = LoggerFactory.getLogger(PoolKeys.class);
  public static final String SECRET = "isolato-pool-admin-key";
  public static final String CURRENT = "current";
  public static final String PREVIOUS = "previous";
  public static final String ROTATE_ANNOTATION = "isolato.dev/rotate";
  public static final String ROTATED_AT_ANNOTATION = "isolato.dev/rotated-at";

  /** Label of the Secret, so an informer watches only it. */
  public static final String ROLE_LABEL = "isolato.dev/role";

  public static final String ROLE = "pool-admin-key";

  private final KubernetesClient client;
  private final String namespace;

  public PoolKeys(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /**
   * The keys in {@code known} (an informer's copy, or null to read the Secret): the Secret is
   * created when missing and rotated first when it asks for it.
   */
  public PoolTokens.Keys keys(Secret known) {
    Secret s =
        known != null ? known : client.secrets().inNamespace(namespace).withName(SECRET).get();
    if (s == null || value(s, CURRENT) == null) {
      s = create();
    }
    if (s.getMetadata().getAnnotations() != null
        && s.getMetadata().getAnnotations().containsKey(ROTATE_ANNOTATION)) {
      s = rotate(s);
    }
    return new PoolTokens.Keys(value(s, CURRENT), value(s, PREVIOUS));
  }

  /**
   * An informer on the master key Secret for the reconciler of {@code P}: a rotated (or re-created)
   * key concerns every primary; {@code toKey} maps a primary to the Secret (null: none needed).
   */
  public static <P extends HasMetadata> InformerEventSource<Secret, P> eventSource(
      String name,
      String namespace,
      EventSourceContext<P> context,
      PrimaryToSecondaryMapper<P> toKey) {
    var config =
        InformerEventSourceConfiguration.from(Secret.class, context.getPrimaryResourceClass())
            .withName(name)
            .withNamespaces(Set.of(namespace))
            .withLabelSelector(ROLE_LABEL + "=" + ROLE)
            .withSecondaryToPrimaryMapper(
                k ->
                    context
                        .getPrimaryCache()
                        .list()
                        .map(ResourceID::fromResource)
                        .collect(Collectors.toSet()));
    return new InformerEventSource<>(
        (toKey == null ? config : config.withPrimaryToSecondaryMapper(toKey)).build(), context);
  }

  /** The keys the Secret holds, without creating or rotating anything; empty when it has none. */
  public static Optional<PoolTokens.Keys> read(Secret s) {
    return s == null || value(s, CURRENT) == null
        ? Optional.empty()
        : Optional.of(new PoolTokens.Keys(value(s, CURRENT), value(s, PREVIOUS)));
  }

  private Secret create() {
    Secret fresh =
        new SecretBuilder()
            .withNewMetadata()
            .withName(SECRET)
            .withNamespace(namespace)
            .addToLabels(PoolObjects.MANAGED_BY, PoolObjects.MANAGER)
            .addToLabels(ROLE_LABEL, ROLE)
            .endMetadata()
            .withType("Opaque")
            .addToData(CURRENT, b64(PoolTokens.newKey()))
            .build();
    try {
      Secret created = client.resource(fresh).create();
      log.info("created the pool master key {}/{}", namespace, SECRET);
      return created;
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      return client.secrets().inNamespace(namespace).withName(SECRET).require();
    }
  }

  private Secret rotate(Secret s) {
    Secret next =
        new SecretBuilder(s)
            .editMetadata()
            .removeFromAnnotations(ROTATE_ANNOTATION)
            .addToAnnotations(ROTATED_AT_ANNOTATION, Instant.now().toString())
            .endMetadata()
            .addToData(PREVIOUS, s.getData().get(CURRENT))
            .addToData(CURRENT, b64(PoolTokens.newKey()))
            .build();
    try {
      Secret rotated = client.resource(next).update();
      log.info(
          "rotated the pool master key (now {}); pools list both tokens until their pods accept the new one",
          PoolTokens.fingerprint(value(rotated, CURRENT)));
      return rotated;
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      // another reconcile rotated first (or the Secret changed): use what is there now
      return client.secrets().inNamespace(namespace).withName(SECRET).require();
    }
  }

  private static String value(Secret s, String key) {
    Map<String, String> data = s.getData();
    String v = data == null ? null : data.get(key);
    return v == null
        ? null
        : new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8).strip();
  }

  private static String b64(String v) {
    return Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8));
  }
}
