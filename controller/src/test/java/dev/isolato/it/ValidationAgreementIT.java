package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.isolato.api.CrdBounds;
import dev.isolato.tenancy.SloClass;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The REST API and the API server (what `kubectl apply` of the object meets: the CRD schema the
 * crd-generator wrote from the same annotations) reject the same specs: for every bound of a class
 * or tenant, the value past it is a 400 naming the field from the API and a 422 naming the same
 * field from the API server, and the value at it passes the API server (the REST side of the values
 * at the bounds: CrdAgreementTest). Nothing is created: the REST calls fail validation, the API
 * server calls are dry runs.
 */
class ValidationAgreementIT extends ItBase {
  private static final String CLASS =
      """
      {"latency":{"percentile":95,"targetMs":50},"resources":{"cpu":"250m","memory":"64Mi"},"priority":0,
       "minReplicas":1,"maxReplicas":1000,"pivotPercent":60,"perPodCutoffRps":10}""";
  private static final String TENANT =
      """
      {"sloClass":"agree","committedRps":10,"burst":10,"profile":{"cpu":1,"memory":1,"io":1}}""";

  @Test
  void classesOutOfBoundsAreRejectedByTheApiAndTheApiServerAlike() throws Exception {
    List<String> checked =
        agree(
            "sloclasses.isolato.dev-v1.yml",
            CLASS,
            "SloClass",
            null,
            "/api/v1/slo-classes",
            "spec.",
            spec -> {
              ObjectNode body = JSON.createObjectNode().put("name", "agree-class");
              body.set("spec", spec);
              return body;
            });
    assertThat(checked)
        .contains(
            "maxReplicas maximum",
            "pivotPercent minimum",
            "latency.percentile maximum",
            "gate.maxAppRequests minimum",
            "gate.queueTimeoutMs maximum");
  }

  @Test
  void tenantsOutOfBoundsAreRejectedByTheApiAndTheApiServerAlike() throws Exception {
    List<String> checked =
        agree(
            "tenants.isolato.dev-v1.yml",
            TENANT,
            "Tenant",
            NS,
            "/api/v1/tenants",
            "",
            spec -> ((ObjectNode) spec.deepCopy()).put("tenantId", "agree-tenant"));
    assertThat(checked).contains("committedRps minimum", "profile.cpu maximum");
  }

  /**
   * Every bound of {@code crd}: past it, a 400 from {@code restPath} naming the field (REST field
   * names carry {@code restPrefix}) and a 422 from the API server; at it, the API server accepts.
   * Returns the bounds checked past.
   */
  private List<String> agree(
      String crd,
      String valid,
      String kind,
      String namespace,
      String restPath,
      String restPrefix,
      Function<JsonNode, ObjectNode> restBody)
      throws Exception {
    List<String> checked = new ArrayList<>();
    for (CrdBounds.Probe p : CrdBounds.probes(crd, valid)) {
      Integer refused = apiServerRefuses(object(kind, namespace, p.body()), "spec." + p.path());
      if (p.inBounds()) {
        assertThat(refused)
            .as("the API server at %s's %s %s", p.path(), p.bound(), p.value())
            .isNull();
        continue;
      }
      Reply rest = api("POST", restPath, restBody.apply(p.body()).toString());
      assertThat(rest.status()).as("REST %s = %s", p.path(), p.value()).isEqualTo(400);
      assertThat(fields(rest))
          .as("REST %s = %s", p.path(), p.value())
          .contains(restPrefix + p.path());
      assertThat(refused).as("the API server %s = %s", p.path(), p.value()).isEqualTo(422);
      checked.add(p.path() + " " + p.bound());
    }
    return checked;
  }

  static GenericKubernetesResource object(String kind, String namespace, JsonNode spec) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(SloClass.GROUP + "/" + SloClass.VERSION)
        .withKind(kind)
        .withNewMetadata()
        .withName("agree")
        .withNamespace(namespace)
        .endMetadata()
        .addToAdditionalProperties("spec", JSON.convertValue(spec, Map.class))
        .build();
  }

  /**
   * Null when a dry-run create passes; the HTTP code when refused, which must name {@code field}.
   */
  static Integer apiServerRefuses(GenericKubernetesResource object, String field) {
    KubernetesClientException e =
        catchThrowableOfType(
            KubernetesClientException.class, () -> kube.resource(object).dryRun().create());
    if (e == null) {
      return null;
    }
    assertThat(e.getStatus().getDetails().getCauses())
        .as(e.getMessage())
        .extracting(StatusCause::getField)
        .contains(field);
    return e.getCode();
  }

  private static List<String> fields(Reply reply) {
    List<String> fields = new ArrayList<>();
    reply.body().path("errors").forEach(e -> fields.add(e.path("field").asText()));
    return fields;
  }
}
