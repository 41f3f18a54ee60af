package dev.isolato.config;

import dev.isolato.tenancy.PoolKeys;
import dev.isolato.tenancy.PoolObjects;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What must exist before the controller can work: its CRDs (generated from the Java types, applied
 * server-side), its namespace (Pod Security Admission restricted, like every namespace Isolato
 * creates), and the master key of the pools' admin tokens.
 */
public class ClusterBootstrap {
  private static final Logger log = LoggerFactory.getLogger(ClusterBootstrap.class);

  /** CRD files the crd-generator writes into the jar. */
  public static final List<String> CRD_RESOURCES =
      List.of(
          "/META-INF/fabric8/sloclasses.isolato.dev-v1.yml",
          "/META-INF/fabric8/tenants.isolato.dev-v1.yml",
          "/META-INF/fabric8/slopools.isolato.dev-v1.yml");

  /** Longer than a namespace controller takes for Isolato's few objects, even on a busy node. */
  static final Duration NAMESPACE_TERMINATION_WAIT = Duration.ofMinutes(5);

  private final KubernetesClient client;
  private final IsolatoProperties props;

  public ClusterBootstrap(KubernetesClient client, IsolatoProperties props) {
    this.client = client;
    this.props = props;
  }

  public void installCrds() {
    for (String path : CRD_RESOURCES) {
      CustomResourceDefinition crd;
      try (InputStream in = ClusterBootstrap.class.getResourceAsStream(path)) {
        if (in == null) {
          throw new IllegalStateException(
              "CRD " + path + " missing from the classpath (crd-generator did not run?)");
        }
        crd = client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      client
          .resource(crd)
          .fieldManager(PoolObjects.FIELD_MANAGER)
          .forceConflicts()
          .serverSideApply();
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName(crd.getMetadata().getName())
          .waitUntilCondition(
              c ->
                  c.getStatus() != null
                      && c.getStatus().getConditions() != null
                      && c.getStatus().getConditions().stream()
                          .anyMatch(
                              k ->
                                  "Established".equals(k.getType())
                                      && "True".equals(k.getStatus())),
              30,
              TimeUnit.SECONDS);
      log.info("CRD {} applied and established", crd.getMetadata().getName());
    }
  }

  /**
   * Creates the controller's namespace when missing. One that is still terminating (e.g. left by an
   * uninstall a moment ago) is waited for first: created into, every Tenant would be refused
   * ("being terminated") while the controller reports ready.
   */
  public void ensureNamespace() {
    ensureNamespace(NAMESPACE_TERMINATION_WAIT);
  }

  void ensureNamespace(Duration maxWait) {
    var ns = client.namespaces().withName(props.namespace());
    var existing = ns.get();
    if (existing != null && existing.getMetadata().getDeletionTimestamp() != null) {
      log.warn(
          "namespace {} is terminating (deleted at {}); waiting up to {} s for it to go before"
              + " re-creating it",
          props.namespace(),
          existing.getMetadata().getDeletionTimestamp(),
          maxWait.toSeconds());
      try {
        ns.waitUntilCondition(n -> n == null, maxWait.toMillis(), TimeUnit.MILLISECONDS);
      } catch (KubernetesClientTimeoutException e) {
        throw new IllegalStateException(
            "namespace "
                + props.namespace()
                + " has been terminating for more than "
                + maxWait.toSeconds()
                + " s; see what holds it with 'kubectl get namespace "
                + props.namespace()
                + " -o yaml' (status.conditions)",
            e);
      }
      existing = null;
    }
    if (existing == null) {
      client
          .resource(
              new NamespaceBuilder()
                  .withNewMetadata()
                  .withName(props.namespace())
                  .addToLabels(PoolObjects.MANAGED_BY, PoolObjects.MANAGER)
                  .addToLabels(PoolObjects.podSecurityLabels())
                  .endMetadata()
                  .build())
          .fieldManager(PoolObjects.FIELD_MANAGER)
          .serverSideApply();
    }
  }

  /**
   * The pool master key (pool admin tokens are derived from it), created when missing so a broken
   * Secret API fails the start, not the first onboarding.
   */
  public void ensurePoolKeys() {
    new PoolKeys(client, props.namespace()).keys(null);
  }
}
