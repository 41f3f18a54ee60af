package dev.isolato.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a client generator needs of an OpenAPI document (ApiContractIT checks the served one): every
 * operation named by one verb scheme, names unique, and every 2xx body {@code application/json}
 * with its schema (generated clients drop a body of any other type); a DELETE answers no body.
 */
public final class ApiContract {
  /** onboard/offboard for tenants, CRUD for the rest, and two actions; no springdoc `get_1`. */
  public static final Pattern OPERATION_ID =
      Pattern.compile(
          "(onboard|offboard|create|get|list|update|delete|start|simulate)[A-Z][A-Za-z]*");

  private ApiContract() {}

  /** Each breach, as "METHOD /path: what"; empty when the document keeps the contract. */
  public static List<String> violations(JsonNode doc) {
    List<String> found = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (var path : fields(doc.path("paths"))) {
      for (var op : fields(path.getValue())) {
        String name = op.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey();
        String id = op.getValue().path("operationId").asText();
        if (!OPERATION_ID.matcher(id).matches()) {
          found.add(name + ": operationId '" + id + "' does not match " + OPERATION_ID);
        } else if (!ids.add(id)) {
          found.add(name + ": operationId '" + id + "' is not unique");
        }
        for (var response : fields(op.getValue().path("responses"))) {
          if (response.getKey().startsWith("2")) {
            success(name + " " + response.getKey(), op.getKey(), response.getValue(), found);
          }
        }
      }
    }
    return found;
  }

  private static void success(String what, String method, JsonNode response, List<String> found) {
    JsonNode content = response.get("content");
    if (method.equals("delete")) {
      if (content != null) {
        found.add(what + ": a DELETE answers no body, the document declares one");
      }
      return;
    }
    List<String> types = content == null ? List.of() : names(content);
    if (!types.equals(List.of("application/json"))) {
      found.add(what + ": body declared as " + types + ", not [application/json]");
    } else if (!content.at("/application~1json/schema").isObject()) {
      found.add(what + ": application/json without a schema");
    }
  }

  private static Iterable<Map.Entry<String, JsonNode>> fields(JsonNode node) {
    return node::fields;
  }

  private static List<String> names(JsonNode node) {
    List<String> out = new ArrayList<>();
    node.fieldNames().forEachRemaining(out::add);
    return out;
  }
}
