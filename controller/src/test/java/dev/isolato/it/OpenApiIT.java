package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.isolato.tenancy.CalibrationStatusMapper;
import dev.isolato.tenancy.SpecLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document tells the truth: security, every status with problem+json, the enforced
 * bounds.
 */
class OpenApiIT extends ItBase {

  private JsonNode docs() throws Exception {
    Reply r = call("GET", "/v3/api-docs", null);
    assertThat(r.status()).isEqualTo(200);
    Files.writeString(Path.of("target/openapi.json"), r.raw().body());
    return r.body();
  }

  @Test
  void everyOperationNeedsTheBearerTokenAndDeclaresItsProblems() throws Exception {
    JsonNode doc = docs();
    assertThat(doc.at("/components/securitySchemes/bearer/type").asText()).isEqualTo("http");
    assertThat(doc.at("/components/securitySchemes/bearer/scheme").asText()).isEqualTo("bearer");
    assertThat(doc.at("/components/schemas/Problem/properties/errors/type").asText())
        .isEqualTo("array");
    int operations = 0;
    for (var path : (Iterable<Map.Entry<String, JsonNode>>) doc.get("paths")::fields) {
      if (!path.getKey().startsWith("/api/")) {
        continue;
      }
      for (var op : (Iterable<Map.Entry<String, JsonNode>>) path.getValue()::fields) {
        operations++;
        String name = op.getKey() + " " + path.getKey();
        assertThat(op.getValue().at("/security/0").has("bearer")).as(name).isTrue();
        JsonNode responses = op.getValue().get("responses");
        for (String code : List.of("401", "403", "503")) {
          assertThat(
                  responses
                      .at("/" + code + "/content/application~1problem+json/schema/$ref")
                      .asText())
              .as(name + " " + code)
              .isEqualTo("#/components/schemas/Problem");
        }
      }
    }
    assertThat(operations).isGreaterThanOrEqualTo(14);
    JsonNode post = doc.at("/paths/~1api~1v1~1tenants/post/responses");
    assertThat(post.fieldNames())
        .toIterable()
        .contains("200", "201", "400", "401", "403", "409", "422", "503");
    assertThat(post.at("/201/content/application~1json/schema/$ref").asText())
        .endsWith("/TenantResponse");
    assertThat(doc.at("/paths/~1api~1v1~1tenants~1{tenantId}/put/responses").fieldNames())
        .toIterable()
        .contains("200", "400", "404", "412", "422");
    assertThat(doc.at("/paths/~1api~1v1~1tenants~1{tenantId}/delete/responses").fieldNames())
        .toIterable()
        .contains("202", "404")
        .doesNotContain("200");
  }

  @Test
  void requestSchemasCarryTheBoundsTheServerEnforces() throws Exception {
    JsonNode schemas = docs().get("components").get("schemas");
    JsonNode tenant = schemas.get("TenantRequest");
    assertThat(tenant.get("required"))
        .extracting(JsonNode::asText)
        .contains("tenantId", "sloClass", "committedRps");
    assertThat(tenant.at("/properties/committedRps/minimum").asDouble())
        .isEqualTo(SpecLimits.MIN_RPS);
    assertThat(tenant.at("/properties/committedRps/maximum").asDouble())
        .isEqualTo(SpecLimits.MAX_RPS);
    assertThat(tenant.at("/properties/tenantId/pattern").asText())
        .isEqualTo(SpecLimits.DNS1123_LABEL);
    assertThat(tenant.at("/properties/tenantId/maxLength").asInt())
        .isEqualTo(dev.isolato.tenancy.PoolNames.MAX_TENANT_ID);
    assertThat(schemas.at("/Profile/properties/cpu/maximum").asInt())
        .isEqualTo(SpecLimits.MAX_PROFILE_CPU);
    JsonNode spec = schemas.get("SloClassSpec");
    assertThat(spec.get("required"))
        .extracting(JsonNode::asText)
        .contains("latency", "resources", "perPodCutoffRps");
    assertThat(spec.at("/properties/perPodCutoffRps/minimum").asDouble())
        .isEqualTo(SpecLimits.MIN_RPS);
    assertThat(spec.at("/properties/maxReplicas/maximum").asInt())
        .isEqualTo(SpecLimits.MAX_REPLICAS);
    assertThat(schemas.at("/LatencyTarget/properties/percentile/maximum").asDouble())
        .isEqualTo(SpecLimits.MAX_PERCENTILE);
    assertThat(schemas.at("/PodResources/properties/cpu/pattern").asText())
        .isEqualTo(SpecLimits.POSITIVE_QUANTITY);
    assertThat(schemas.at("/SloClassBody/properties/status/readOnly").asBoolean()).isTrue();
    JsonNode run = schemas.get("CalibrationRun");
    assertThat(run.get("required"))
        .extracting(JsonNode::asText)
        .contains("schemaVersion", "runId", "sloClass", "context", "steps");
    assertThat(run.at("/properties/steps/minItems").asInt()).isEqualTo(1);
    assertThat(run.at("/properties/steps/maxItems").asInt())
        .isEqualTo(CalibrationStatusMapper.MAX_STEPS);
    assertThat(schemas.at("/CalibrationStep/properties/offeredRps/exclusiveMinimum").isNumber())
        .isTrue();
    assertThat(schemas.at("/CalibrationStep/properties/offeredRps/exclusiveMinimum").asDouble())
        .isZero();
    assertThat(schemas.at("/CalibrationContext/properties/replicas/minimum").asInt()).isEqualTo(1);
    assertThat(schemas.at("/SimulateRequest/properties/tenants/maxItems").asInt())
        .isEqualTo(10_000);
  }
}
