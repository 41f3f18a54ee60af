package dev.isolato.incontext;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The calibration replica's tenant table: the pool's own (the same tenants and profiles, so the
 * same request mix reaches the same code), without per-tenant rate limits — the ramp offers each
 * tenant far more than its commitment, and a 429 from the gate would measure admission, not the
 * pod.
 */
public final class CalibrationTable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private CalibrationTable() {}

  /** The table JSON with every tenant's {@code rateRps} and {@code burst} removed. */
  public static String unlimited(String tableJson) {
    ObjectNode table = read(tableJson);
    JsonNode tenants = table.path("tenants");
    tenants.forEach(
        t -> {
          if (t instanceof ObjectNode o) {
            o.remove("rateRps");
            o.remove("burst");
          }
        });
    return table.toString();
  }

  /** The table's tenant ids in table order: the generator serves them in turn. */
  public static List<String> tenants(String tableJson) {
    List<String> ids = new ArrayList<>();
    read(tableJson).path("tenants").fieldNames().forEachRemaining(ids::add);
    return ids;
  }

  private static ObjectNode read(String tableJson) {
    try {
      if (JSON.readTree(tableJson) instanceof ObjectNode o) {
        return o;
      }
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("tenant table is not JSON: " + e.getOriginalMessage(), e);
    }
    throw new IllegalArgumentException("tenant table is not a JSON object");
  }
}
