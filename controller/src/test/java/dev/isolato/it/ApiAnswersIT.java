package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.isolato.DocClaim;
import dev.isolato.tenancy.Tenant;
import java.time.Duration;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Answers of docs/api.md that no other IT pins down: headers, paging bounds, media type, limits,
 * defaults.
 */
class ApiAnswersIT extends ItBase {

  @Test
  @Order(340)
  @DocClaim("docs/api.md: 201 + `ETag` + `Location`")
  @DocClaim("docs/api.md: 200 + `ETag` (= `\"<resourceVersion>\"`)")
  void aCreatedTenantIsLocatedAndItsEtagIsItsResourceVersion() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson("ans", 2, 50, false)).status())
        .isEqualTo(201);
    Reply created = api("POST", "/api/v1/tenants", tenantJson("ans-1", "ans", 5, "shared"));
    assertThat(created.status()).isEqualTo(201);
    assertThat(created.raw().headers().firstValue("Location")).hasValue("/api/v1/tenants/ans-1");
    Reply read = api("GET", "/api/v1/tenants/ans-1", null);
    assertThat(read.status()).isEqualTo(200);
    String rv =
        kube.resources(Tenant.class)
            .inNamespace(NS)
            .withName("ans-1")
            .get()
            .getMetadata()
            .getResourceVersion();
    assertThat(read.raw().headers().firstValue("ETag")).hasValue("\"" + rv + "\"");
  }

  @Test
  @Order(341)
  @DocClaim("docs/api.md: The API takes `application/json` only (415 otherwise).")
  @DocClaim("docs/api.md: | 415 | the body is not `application/json` |")
  void aBodyThatIsNotJsonIs415() throws Exception {
    Reply r =
        api(
            "POST",
            "/api/v1/tenants",
            tenantJson("ans-2", "ans", 5, "shared"),
            "Content-Type",
            "text/plain");
    assertThat(r.status()).isEqualTo(415);
    assertThat(r.raw().headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    assertThat(kube.resources(Tenant.class).inNamespace(NS).withName("ans-2").get()).isNull();
  }

  @Test
  @Order(342)
  @DocClaim("docs/api.md: `limit` is 1..1000.")
  @DocClaim("docs/api.md: a `continue` token that is expired or not from this list")
  void listLimitsAreBoundedAndAForeignContinueTokenIs422() throws Exception {
    for (String route : new String[] {"/api/v1/tenants", "/api/v1/slo-classes"}) {
      assertThat(api("GET", route + "?limit=1000", null).status()).isEqualTo(200);
      for (int bad : new int[] {0, 1001}) {
        Reply r = api("GET", route + "?limit=" + bad, null);
        assertThat(r.status()).as("%s limit %d", route, bad).isEqualTo(400);
        assertThat(r.body().at("/errors/0/field").asText()).isEqualTo("limit");
      }
      Reply foreign = api("GET", route + "?limit=1&continue=not-a-token", null);
      assertThat(foreign.status()).as(route).isEqualTo(422);
      assertThat(foreign.body().get("field").asText()).isEqualTo("continue");
    }
  }

  @Test
  @Order(343)
  @DocClaim("docs/api.md: value cannot name an object and is answered 404 (422 in a body)")
  void aNameNoObjectCanHaveIs404InThePathAnd422InABody() throws Exception {
    String tooLong = "a".repeat(64);
    for (String path :
        new String[] {
          "/api/v1/tenants/" + tooLong,
          "/api/v1/slo-classes/Not_A_Name",
          "/api/v1/slo-classes/" + tooLong + "/plan",
          "/api/v1/calibrations?sloClass=" + tooLong
        }) {
      assertThat(api("GET", path, null).status()).as(path).isEqualTo(404);
    }
    Reply inBody =
        api("POST", "/api/v1/plans:simulate", "{\"sloClass\":\"" + tooLong + "\",\"tenants\":[]}");
    assertThat(inBody.status()).isEqualTo(422);
    assertThat(inBody.body().get("field").asText()).isEqualTo("sloClass");
  }

  @Test
  @Order(344)
  @DocClaim("docs/api.md: at most 200 steps")
  void aCalibrationRunOfMoreThan200StepsIsRefused() throws Exception {
    JsonNode run = JSON.readTree(SloApiIT.runJson("ans-run", "ans", 1));
    var steps = (com.fasterxml.jackson.databind.node.ArrayNode) run.get("steps");
    JsonNode last = steps.get(steps.size() - 1);
    while (steps.size() <= 200) {
      var copy = last.deepCopy();
      ((com.fasterxml.jackson.databind.node.ObjectNode) copy).put("index", steps.size());
      steps.add(copy);
    }
    Reply r = api("POST", "/api/v1/calibrations", run.toString());
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body().get("errors").findValuesAsText("message"))
        .anyMatch(m -> m.contains("at most 200 steps"));
  }

  @Test
  @Order(345)
  @DocClaim(
      "docs/api.md: (default: each pod answers a tenant's requests beyond its admitted rate with 429)")
  void aClassWithoutAdmissionEnforcesTheAdmittedRate() throws Exception {
    String noAdmission =
        classJson("ans-adm", 2, 50, false).replace(",\"admission\":\"enforce\"", "");
    assertThat(noAdmission).doesNotContain("admission");
    assertThat(api("POST", "/api/v1/slo-classes", noAdmission).status()).isEqualTo(201);
    assertThat(
            api("GET", "/api/v1/slo-classes/ans-adm", null).body().at("/spec/admission").asText())
        .isEqualTo("enforce");
    assertThat(
            api("POST", "/api/v1/tenants", tenantJson("ans-adm-1", "ans-adm", 7, "shared"))
                .status())
        .isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              var cm =
                  kube.configMaps().inNamespace("isolato-c-ans-adm").withName("tenant-table").get();
              assertThat(cm).isNotNull();
              assertThat(
                      JSON.readTree(cm.getData().get("tenants.json"))
                          .at("/tenants/ans-adm-1/rateRps")
                          .asDouble())
                  .isEqualTo(7);
            });
  }
}
