package dev.isolato.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The contract check finds what the document served before operationIds and produces. */
class ApiContractTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode doc(String paths) throws Exception {
    return JSON.readTree("{\"paths\":" + paths.replace('\'', '"') + "}");
  }

  private static final String JSON_BODY =
      "{'content':{'application/json':{'schema':{'$ref':'#/components/schemas/TenantResponse'}}}}";

  @Test
  void aNamedJsonDocumentKeepsTheContract() throws Exception {
    assertThat(
            ApiContract.violations(
                doc(
                    "{'/api/v1/tenants/{tenantId}':{"
                        + "'get':{'operationId':'getTenant','responses':{'200':"
                        + JSON_BODY
                        + ",'404':{'content':{'application/problem+json':{}}}}},"
                        + "'delete':{'operationId':'offboardTenant','responses':{'202':{}}}}}")))
        .isEmpty();
  }

  @Test
  void springdocsDefaultNamesAndWildcardBodiesAreBreaches() throws Exception {
    assertThat(
            ApiContract.violations(
                doc(
                    "{'/api/v1/slo-classes/{name}':{"
                        + "'get':{'operationId':'get_1','responses':{'200':{'content':{'*/*':"
                        + "{'schema':{'$ref':'#/components/schemas/SloClassBody'}}}}}},"
                        + "'put':{'responses':{'200':{}}},"
                        + "'delete':{'operationId':'deleteSloClass','responses':{'202':"
                        + JSON_BODY
                        + "}}},"
                        + "'/api/v1/tenants':{'get':{'operationId':'deleteSloClass','responses':"
                        + "{'200':{'content':{'application/json':{}}}}}}}")))
        .containsExactly(
            "GET /api/v1/slo-classes/{name}: operationId 'get_1' does not match "
                + ApiContract.OPERATION_ID,
            "GET /api/v1/slo-classes/{name} 200: body declared as [*/*], not [application/json]",
            "PUT /api/v1/slo-classes/{name}: operationId '' does not match "
                + ApiContract.OPERATION_ID,
            "PUT /api/v1/slo-classes/{name} 200: body declared as [], not [application/json]",
            "DELETE /api/v1/slo-classes/{name} 202: a DELETE answers no body, the document declares one",
            "GET /api/v1/tenants: operationId 'deleteSloClass' is not unique",
            "GET /api/v1/tenants 200: application/json without a schema");
  }
}
