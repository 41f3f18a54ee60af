package dev.isolato.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Inputs at and just past every numeric bound of a generated CRD's spec schema
 * (target/classes/META-INF/fabric8): what the REST validation and the API server must agree on.
 */
public final class CrdBounds {
  public static final Path CRDS = Path.of("target/classes/META-INF/fabric8");
  private static final ObjectMapper JSON = new ObjectMapper();

  private CrdBounds() {}

  /**
   * One input: {@code valid} with the property at {@code path} (dotted, under spec) set to a bound
   * ({@code inBounds}) or to the first value past it.
   */
  public record Probe(String path, String bound, JsonNode value, JsonNode body, boolean inBounds) {}

  /** Two probes (at, past) per minimum and maximum under the CRD's spec. */
  public static List<Probe> probes(String crdFile, String valid) throws IOException {
    JsonNode spec =
        new YAMLMapper()
            .readTree(CRDS.resolve(crdFile).toFile())
            .at("/spec/versions/0/schema/openAPIV3Schema/properties/spec");
    List<Probe> probes = new ArrayList<>();
    walk(
        spec,
        "",
        (path, schema) -> {
          boolean integer = "integer".equals(schema.path("type").asText());
          for (String bound : List.of("minimum", "maximum")) {
            if (!schema.has(bound)) {
              continue;
            }
            double at = schema.get(bound).asDouble();
            double past =
                bound.equals("minimum")
                    ? (integer ? at - 1 : Math.nextDown(at))
                    : (integer ? at + 1 : Math.nextUp(at));
            JsonNode atValue = integer ? JSON.valueToTree((long) at) : JSON.valueToTree(at);
            JsonNode pastValue = integer ? JSON.valueToTree((long) past) : JSON.valueToTree(past);
            probes.add(new Probe(path, bound, atValue, with(valid, path, atValue), true));
            probes.add(new Probe(path, bound, pastValue, with(valid, path, pastValue), false));
          }
        });
    return probes;
  }

  private interface Visitor {
    void visit(String path, JsonNode schema);
  }

  private static void walk(JsonNode schema, String path, Visitor v) {
    if (schema.has("properties")) {
      schema
          .get("properties")
          .fieldNames()
          .forEachRemaining(
              n -> walk(schema.get("properties").get(n), path.isEmpty() ? n : path + "." + n, v));
    } else {
      v.visit(path, schema);
    }
  }

  private static JsonNode with(String json, String path, JsonNode value) {
    try {
      ObjectNode root = (ObjectNode) JSON.readTree(json);
      ObjectNode node = root;
      String[] parts = path.split("\\.", -1);
      for (int i = 0; i < parts.length - 1; i++) {
        // an optional object (spec.gate) the valid input leaves out is made for its bounds
        node = node.has(parts[i]) ? (ObjectNode) node.get(parts[i]) : node.putObject(parts[i]);
      }
      node.set(parts[parts.length - 1], value);
      return root;
    } catch (IOException e) {
      throw new IllegalArgumentException(json, e);
    }
  }
}
