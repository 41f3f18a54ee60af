package dev.isolato.tenancy;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Whether an object already holds every field of a desired object: the test that lets a
 * reconcile skip a server-side apply (and so make no write) when nothing would change.
 * Fields the server adds (defaults, status, managedFields) are ignored; arrays must match
 * element by element; Kubernetes quantities compare by value ("1000m" equals "1").
 */
public final class Subset {
  private static final Pattern QUANTITY = Pattern.compile("^[+-]?[0-9.]+([eE][+-]?[0-9]+|[numkMGTPE]|[KMGTPE]i)?$");

  private Subset() {}

  public static boolean contains(JsonNode actual, JsonNode desired) {
    if (desired == null || desired.isNull()) {
      return true;
    }
    if (actual == null || actual.isNull() || actual.isMissingNode()) {
      return false;
    }
    if (desired.isObject()) {
      if (!actual.isObject()) {
        return false;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = desired.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        if (!contains(actual.get(f.getKey()), f.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (desired.isArray()) {
      if (!actual.isArray() || actual.size() != desired.size()) {
        return false;
      }
      for (int i = 0; i < desired.size(); i++) {
        if (!contains(actual.get(i), desired.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (desired.isNumber() && actual.isNumber()) {
      return desired.decimalValue().compareTo(actual.decimalValue()) == 0;
    }
    if (desired.isTextual() && actual.isTextual() && !desired.asText().equals(actual.asText())) {
      return sameQuantity(desired.asText(), actual.asText());
    }
    return desired.equals(actual);
  }

  static boolean sameQuantity(String a, String b) {
    if (!QUANTITY.matcher(a).matches() || !QUANTITY.matcher(b).matches()) {
      return false;
    }
    return amount(a).compareTo(amount(b)) == 0;
  }

  private static BigDecimal amount(String q) {
    return io.fabric8.kubernetes.api.model.Quantity.getAmountInBytes(new io.fabric8.kubernetes.api.model.Quantity(q));
  }
}
