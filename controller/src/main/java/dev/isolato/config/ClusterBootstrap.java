package dev.isolato.config;

import dev.isolato.tenancy.Applier;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What must exist before the controller can work: its CRDs (generated from the Java types,
 * applied server-side), its namespace, and the token the workload's admin endpoint accepts.
 */
public class ClusterBootstrap {
  private static final Logger log = LoggerFactory.getLogger(ClusterBootstrap.class);
  /** CRD files the crd-generator writes into the jar. */
  public static final List<String> CRD_RESOURCES = List.of(
      "/META-INF/fabric8/sloclasses.isolato.dev-v1.yml", "/META-INF/fabric8/tenants.isolato.dev-v1.yml");
  static final String ADMIN_TOKEN_SECRET = "saas-bench-admin-token";

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
          throw new IllegalStateException("CRD " + path + " missing from the classpath (crd-generator did not run?)");
        }
        crd = client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      client.resource(crd).fieldManager(Applier.FIELD_MANAGER).forceConflicts().serverSideApply();
      client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
          .waitUntilCondition(c -> c.getStatus() != null && c.getStatus().getConditions() != null
              && c.getStatus().getConditions().stream().anyMatch(k -> "Established".equals(k.getType()) && "True".equals(k.getStatus())),
              30, TimeUnit.SECONDS);
      log.info("CRD {} applied and established", crd.getMetadata().getName());
    }
  }

  public void ensureNamespace() {
    if (client.namespaces().withName(props.namespace()).get() == null) {
      client.resource(new NamespaceBuilder().withNewMetadata().withName(props.namespace())
          .addToLabels("app.kubernetes.io/managed-by", "isolato").endMetadata().build())
          .fieldManager(Applier.FIELD_MANAGER).serverSideApply();
    }
  }

  /** The workload admin token, created once (randomly) and shared by every replica. */
  public String adminToken() {
    var secrets = client.secrets().inNamespace(props.namespace());
    Secret s = secrets.withName(ADMIN_TOKEN_SECRET).get();
    if (s == null) {
      byte[] raw = new byte[24];
      new SecureRandom().nextBytes(raw);
      try {
        s = secrets.resource(new SecretBuilder().withNewMetadata().withName(ADMIN_TOKEN_SECRET).endMetadata()
            .addToStringData("token", HexFormat.of().formatHex(raw)).build()).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
        s = secrets.withName(ADMIN_TOKEN_SECRET).require();
      }
    }
    return new String(Base64.getDecoder().decode(s.getData().get("token")), StandardCharsets.UTF_8);
  }
}
