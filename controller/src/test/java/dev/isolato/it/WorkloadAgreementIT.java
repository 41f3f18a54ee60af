package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.isolato.DocClaim;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pod template the restricted Pod Security profile (or the gate) forbids is refused alike by the
 * REST API (422 problem+json naming the field) and by the API server (422 from the CRD's CEL rules
 * and bounds, naming the same field): WorkloadRules is the one definition both read. Nothing is
 * created: the REST calls fail validation, the API server calls are dry runs.
 */
class WorkloadAgreementIT extends ItBase {
  private static final String CLASS =
      """
      {"latency":{"percentile":95,"targetMs":50},"resources":{"cpu":"250m","memory":"64Mi"},
       "minReplicas":1,"maxReplicas":2,"perPodCutoffRps":10,"tenantKey":"header:X-Tenant",
       "workload":{"containers":[{"name":"httpbin","image":"localhost/isolato/go-httpbin:dev",
         "args":["-port","8081"],"ports":[{"name":"app","containerPort":8081}]}]}}""";

  private static final String C = "workload.containers[0].";

  /** A JSON pointer under spec to change, the value, and the field both sides must name. */
  private record Case(String pointer, String json, String field) {}

  private static final List<Case> CASES =
      List.of(
          new Case("/workload/hostNetwork", "true", "workload.hostNetwork"),
          new Case("/workload/hostPID", "true", "workload.hostPID"),
          new Case("/workload/hostIPC", "true", "workload.hostIPC"),
          new Case(
              "/workload/volumes",
              "[{\"name\":\"root\",\"hostPath\":{\"path\":\"/\"}}]",
              "workload.volumes[0].hostPath"),
          new Case(
              "/workload/volumes",
              "[{\"name\":\"admin\",\"emptyDir\":{}}]",
              "workload.volumes[0].name"),
          new Case("/workload/containers/0/name", "\"isolato-gate\"", C + "name"),
          new Case(
              "/workload/containers/0/ports/0/containerPort", "8080", C + "ports[0].containerPort"),
          new Case(
              "/workload/containers/0/ports/0/containerPort", "8079", C + "ports[0].containerPort"),
          new Case("/workload/containers/0/ports/0/hostPort", "80", C + "ports[0].hostPort"),
          new Case("/workload/containers/0/ports/0/name", "\"http\"", C + "ports[0].name"),
          new Case(
              "/workload/containers/0/ports",
              "[{\"containerPort\":8081},{\"containerPort\":8082}]",
              C + "ports"),
          new Case(
              "/workload/containers/1",
              "{\"name\":\"b\",\"image\":\"x\",\"ports\":[{\"containerPort\":9000}]}",
              "workload.containers"),
          new Case(
              "/workload/containers/0/securityContext",
              "{\"privileged\":true}",
              C + "securityContext.privileged"),
          new Case(
              "/workload/containers/0/securityContext",
              "{\"allowPrivilegeEscalation\":true}",
              C + "securityContext.allowPrivilegeEscalation"),
          new Case(
              "/workload/containers/0/securityContext",
              "{\"runAsNonRoot\":false}",
              C + "securityContext.runAsNonRoot"),
          new Case(
              "/workload/containers/0/securityContext",
              "{\"runAsUser\":0}",
              C + "securityContext.runAsUser"),
          new Case(
              "/workload/containers/0/securityContext",
              "{\"capabilities\":{\"add\":[\"SYS_ADMIN\"]}}",
              C + "securityContext.capabilities.add"),
          new Case(
              "/workload/containers/0/securityContext",
              "{\"seccompProfile\":{\"type\":\"Unconfined\"}}",
              C + "securityContext.seccompProfile.type"),
          new Case("/image", "\"localhost/isolato/saas-bench:dev\"", "workload"));

  @Test
  @DocClaim(
      "docs/api.md: that the restricted Pod Security profile or the gate forbids is answered 422 with every")
  @DocClaim("docs/api.md: as the CRD's validation rules (CEL, `WorkloadRules`) answer 422.")
  @DocClaim(
      "docs/bring-your-service.md: A template that cannot run so is refused, per field, by the REST API (422")
  void everyForbiddenTemplateIsA422NamingTheFieldFromTheApiAndTheApiServerAlike() throws Exception {
    JsonNode valid = JSON.readTree(CLASS);
    assertThat(apiServerRefuses(valid, "")).as("the valid template").isNull();
    List<String> checked = new ArrayList<>();
    for (Case c : CASES) {
      JsonNode spec = with(valid, c.pointer(), JSON.readTree(c.json()));
      ObjectNode body = JSON.createObjectNode().put("name", "agree-workload");
      body.set("spec", spec);
      Reply rest = api("POST", "/api/v1/slo-classes", body.toString());
      assertThat(rest.status()).as("REST %s", c).isEqualTo(422);
      assertThat(rest.raw().headers().firstValue("Content-Type").orElse(""))
          .contains("application/problem+json");
      List<String> fields = new ArrayList<>();
      rest.body().path("errors").forEach(e -> fields.add(e.path("field").asText()));
      assertThat(fields).as("REST %s", c).contains("spec." + c.field());
      assertThat(apiServerRefuses(spec, "spec." + c.field())).as("API server %s", c).isEqualTo(422);
      checked.add(c.field());
    }
    assertThat(checked).hasSize(CASES.size());
  }

  @Test
  void aPodNoLargerThanTheGatesShareIsRefused() throws Exception {
    for (String[] c :
        List.of(
            new String[] {"/resources/cpu", "\"50m\"", "resources.cpu"},
            new String[] {"/resources/memory", "\"24Mi\"", "resources.memory"},
            new String[] {
              "/resources/cpuCandidates", "[\"1\", \"0.05\"]", "resources.cpuCandidates"
            })) {
      JsonNode spec = with(JSON.readTree(CLASS), c[0], JSON.readTree(c[1]));
      ObjectNode body = JSON.createObjectNode().put("name", "agree-workload");
      body.set("spec", spec);
      Reply rest = api("POST", "/api/v1/slo-classes", body.toString());
      assertThat(rest.status()).as(c[2]).isEqualTo(400);
      assertThat(rest.body().at("/errors/0/field").asText()).isEqualTo("spec." + c[2]);
      assertThat(apiServerRefuses(spec, "spec." + c[2])).as(c[2]).isEqualTo(422);
    }
    JsonNode fits = with(JSON.readTree(CLASS), "/resources/cpu", JSON.readTree("\"51m\""));
    assertThat(apiServerRefuses(fits, "")).isNull();
  }

  @Test
  void aTenantKeyTheGateCannotReadIsRefused() throws Exception {
    for (String bad :
        List.of(
            "header:",
            "header:X Tenant",
            "header:X.Tenant",
            "path:/",
            "path:/v1",
            "path:v1/",
            "cookie:x")) {
      JsonNode spec = with(JSON.readTree(CLASS), "/tenantKey", JSON.valueToTree(bad));
      ObjectNode body = JSON.createObjectNode().put("name", "agree-workload");
      body.set("spec", spec);
      Reply rest = api("POST", "/api/v1/slo-classes", body.toString());
      assertThat(rest.status()).as(bad).isEqualTo(400);
      assertThat(rest.body().at("/errors/0/field").asText()).isEqualTo("spec.tenantKey");
      assertThat(apiServerRefuses(spec, "spec.tenantKey")).as(bad).isEqualTo(422);
    }
    for (String good :
        List.of("header:X-Tenant", "header:x_org", "path:/t/", "path:/v1/tenants/", "host")) {
      JsonNode spec = with(JSON.readTree(CLASS), "/tenantKey", JSON.valueToTree(good));
      assertThat(apiServerRefuses(spec, "")).as(good).isNull();
    }
  }

  @Test
  void aRequestMixTheGeneratorCannotSendIsRefusedPerField() throws Exception {
    String ok = "{\"method\":\"GET\",\"path\":\"/get?x=1\",\"weight\":3}";
    JsonNode good = with(JSON.readTree(CLASS), "/requestMix", JSON.readTree("[" + ok + "]"));
    assertThat(apiServerRefuses(good, "")).isNull();
    for (String[] c :
        List.of(
            new String[] {"{\"method\":\"BREW\",\"path\":\"/pot\"}", "requestMix[0].method"},
            new String[] {"{\"method\":\"get\",\"path\":\"/get\"}", "requestMix[0].method"},
            new String[] {"{\"method\":\"GET\",\"path\":\"get\"}", "requestMix[0].path"},
            new String[] {"{\"method\":\"GET\",\"path\":\"/a b\"}", "requestMix[0].path"},
            new String[] {"{\"method\":\"GET\",\"path\":\"/a,b\"}", "requestMix[0].path"},
            new String[] {
              "{\"method\":\"GET\",\"path\":\"/" + "a".repeat(256) + "\"}", "requestMix[0].path"
            },
            new String[] {
              "{\"method\":\"GET\",\"path\":\"/g\",\"weight\":0}", "requestMix[0].weight"
            },
            new String[] {
              "{\"method\":\"GET\",\"path\":\"/g\",\"weight\":101}", "requestMix[0].weight"
            })) {
      JsonNode spec = with(JSON.readTree(CLASS), "/requestMix", JSON.readTree("[" + c[0] + "]"));
      ObjectNode body = JSON.createObjectNode().put("name", "agree-workload");
      body.set("spec", spec);
      Reply rest = api("POST", "/api/v1/slo-classes", body.toString());
      assertThat(rest.status()).as(c[0]).isEqualTo(400);
      assertThat(rest.body().at("/errors/0/field").asText()).as(c[0]).isEqualTo("spec." + c[1]);
      assertThat(apiServerRefuses(spec, "spec." + c[1])).as(c[0]).isEqualTo(422);
    }
    JsonNode tooMany =
        with(
            JSON.readTree(CLASS),
            "/requestMix",
            JSON.readTree("[" + String.join(",", java.util.Collections.nCopies(17, ok)) + "]"));
    assertThat(apiServerRefuses(with(JSON.readTree(CLASS), "/requestMix", JSON.readTree("[]")), ""))
        .as("empty is absent, as the REST API takes it (generated clients send [])")
        .isNull();
    for (JsonNode spec : List.of(tooMany)) {
      ObjectNode body = JSON.createObjectNode().put("name", "agree-workload");
      body.set("spec", spec);
      assertThat(
              api("POST", "/api/v1/slo-classes", body.toString())
                  .body()
                  .at("/errors/0/field")
                  .asText())
          .isEqualTo("spec.requestMix");
      assertThat(apiServerRefuses(spec, "spec.requestMix")).isEqualTo(422);
    }
  }

  private static JsonNode with(JsonNode valid, String pointer, JsonNode value) {
    JsonNode copy = valid.deepCopy();
    int cut = pointer.lastIndexOf('/');
    JsonNode parent = copy.at(pointer.substring(0, cut));
    String last = pointer.substring(cut + 1);
    if (parent.isArray()) {
      var array = (com.fasterxml.jackson.databind.node.ArrayNode) parent;
      int i = Integer.parseInt(last);
      if (i < array.size()) {
        array.set(i, value);
      } else {
        array.add(value);
      }
    } else {
      ((ObjectNode) parent).set(last, value);
    }
    return copy;
  }

  /** Null when a dry-run create passes; the HTTP code when refused, which must name field. */
  private static Integer apiServerRefuses(JsonNode spec, String field) {
    return ValidationAgreementIT.apiServerRefuses(
        ValidationAgreementIT.object("SloClass", null, spec), field);
  }
}
