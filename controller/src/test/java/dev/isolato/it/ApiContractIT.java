package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.isolato.DocClaim;
import dev.isolato.api.ApiContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document is a contract a client can be generated from: docs/reference/openapi.json is
 * exactly what /v3/api-docs serves (the api-client module generates the client of GeneratedClientIT
 * from that file), every operation is named, and every 2xx body is JSON with its schema. {@code
 * -Disolato.openapi.update=true} (`make api-spec`) rewrites the file instead.
 */
class ApiContractIT extends ItBase {
  static final Path COMMITTED = Path.of("../docs/reference/openapi.json");

  private JsonNode served() throws Exception {
    Reply r = call("GET", "/v3/api-docs", null);
    assertThat(r.status()).isEqualTo(200);
    return r.body();
  }

  /** Keys sorted at every level, so that a change of the API is a small diff of the file. */
  static String canonical(JsonNode doc) throws Exception {
    return JSON.copy()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .writerWithDefaultPrettyPrinter()
            .writeValueAsString(JSON.treeToValue(doc, Object.class))
        + "\n";
  }

  @Test
  @DocClaim("docs/api.md: `make api-spec` rewrites it")
  void theCommittedDocumentIsTheServedOne() throws Exception {
    String served = canonical(served());
    if (Boolean.getBoolean("isolato.openapi.update")) {
      Files.writeString(COMMITTED, served);
    }
    // Both canonical: the order of a JSON object's members carries no meaning.
    assertThat(firstDifference(canonical(JSON.readTree(COMMITTED.toFile())), served))
        .as("docs/reference/openapi.json is not what /v3/api-docs serves: run `make api-spec`")
        .isEmpty();
  }

  /** The first line where two documents differ, if any (a readable failure, not two dumps). */
  static Optional<String> firstDifference(String committed, String served) {
    List<String> a = committed.lines().toList();
    List<String> b = served.lines().toList();
    for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
      String left = i < a.size() ? a.get(i).strip() : "(end)";
      String right = i < b.size() ? b.get(i).strip() : "(end)";
      if (!left.equals(right)) {
        return Optional.of("line " + (i + 1) + ": committed " + left + ", served " + right);
      }
    }
    return Optional.empty();
  }

  @Test
  @DocClaim("docs/api.md: every 2xx body is `application/json`")
  void everyOperationIsNamedAndEverySuccessIsJson() throws Exception {
    JsonNode doc = served();
    assertThat(ApiContract.violations(doc)).isEmpty();
    assertThat(doc.at("/paths/~1api~1v1~1tenants/post/operationId").asText())
        .isEqualTo("onboardTenant");
  }
}
