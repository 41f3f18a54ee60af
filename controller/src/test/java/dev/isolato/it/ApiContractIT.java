package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.isolato.DocClaim;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document is a contract a client can be generated from: docs/reference/openapi.json is
 * exactly what /v3/api-docs serves (the api-client module generates the client of GeneratedClientIT
 * from that file), every operation is named, and every 2xx body is JSON with its schema. {@code
 * -Disolato.openapi.update=true} (`make api-spec`) rewrites the file instead.
 */
class ApiContractIT extends ItBase {
  static final Path COMMITTED = Path.of("../docs/reference/openapi.json");

  /** One verb scheme: onboard/offboard for tenants, CRUD for the rest, and two actions. */
  static final Pattern OPERATION_ID =
      Pattern.compile("(onboard|offboard|create|get|list|update|delete|start|simulate)[A-Z]\\w*");

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
    Set<String> ids = new HashSet<>();
    int operations = 0;
    for (var path : (Iterable<Map.Entry<String, JsonNode>>) served().get("paths")::fields) {
      for (var op : (Iterable<Map.Entry<String, JsonNode>>) path.getValue()::fields) {
        operations++;
        String name = op.getKey().toUpperCase(java.util.Locale.ROOT) + " " + path.getKey();
        String id = op.getValue().path("operationId").asText();
        assertThat(id).as(name + " operationId").matches(OPERATION_ID);
        assertThat(ids.add(id)).as(name + " operationId unique").isTrue();
        for (var response :
            (Iterable<Map.Entry<String, JsonNode>>) op.getValue().get("responses")::fields) {
          if (!response.getKey().startsWith("2")) {
            continue;
          }
          JsonNode content = response.getValue().get("content");
          String what = name + " " + response.getKey();
          if (op.getKey().equals("delete")) {
            assertThat(content).as(what + " has no body").isNull();
          } else {
            assertThat(content.fieldNames())
                .toIterable()
                .as(what)
                .containsExactly("application/json");
            assertThat(content.at("/application~1json/schema").isObject()).as(what).isTrue();
          }
        }
      }
    }
    assertThat(operations).isEqualTo(ids.size()).isGreaterThanOrEqualTo(18);
  }
}
