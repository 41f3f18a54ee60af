package dev.isolato.gatling.plan;

import dev.isolato.calibration.RequestMix;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Typed, validated access to the simulations' parameters ({@code -Disolato.<name>=...}). Every
 * error names the property and the bad value, so a mistyped run fails before any load.
 */
public final class Settings {
  /** Prefix of every simulation parameter. */
  public static final String PREFIX = "isolato.";

  private final Map<String, String> values;

  public Settings(Map<String, String> values) {
    this.values = new TreeMap<>(values);
  }

  /** The {@code isolato.*} system properties of this JVM. */
  public static Settings fromSystemProperties() {
    Properties props = System.getProperties();
    Map<String, String> values = new TreeMap<>();
    props.stringPropertyNames().stream()
        .filter(n -> n.startsWith(PREFIX))
        .forEach(n -> values.put(n.substring(PREFIX.length()), props.getProperty(n)));
    return new Settings(values);
  }

  public String string(String name, String fallback) {
    String v = values.get(name);
    return v == null || v.isBlank() ? fallback : v.trim();
  }

  public boolean has(String name) {
    return string(name, null) != null;
  }

  public String requiredString(String name) {
    String v = string(name, null);
    if (v == null) {
      throw new IllegalArgumentException(PREFIX + name + " is required");
    }
    return v;
  }

  public double positiveDouble(String name, Double fallback) {
    String v = string(name, null);
    if (v == null) {
      if (fallback == null) {
        throw new IllegalArgumentException(PREFIX + name + " is required");
      }
      return fallback;
    }
    return positive(name, v);
  }

  public int positiveInt(String name, Integer fallback) {
    double d = positiveDouble(name, fallback == null ? null : fallback.doubleValue());
    if (d != Math.rint(d) || d > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(PREFIX + name + " must be a whole number: " + d);
    }
    return (int) d;
  }

  public boolean bool(String name, boolean fallback) {
    String v = string(name, null);
    if (v == null) {
      return fallback;
    }
    if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException(PREFIX + name + " must be true or false: '" + v + "'");
    }
    return Boolean.parseBoolean(v);
  }

  /** A comma-separated list of positive numbers, e.g. {@code 1,2,4}. */
  public List<Double> positiveDoubles(String name, String fallback) {
    List<Double> out = new ArrayList<>();
    for (String item : items(name, fallback)) {
      out.add(positive(name, item));
    }
    return out;
  }

  /**
   * The request mix of {@code isolato.requests} (its text form) and {@code isolato.tenantHeader}.
   */
  public RequestMix requestMix() {
    try {
      return RequestMix.parse(list("requests", RequestMix.SAAS_BENCH), string("tenantHeader", ""));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(PREFIX + "requests: " + e.getMessage(), e);
    }
  }

  /** A comma-separated list of distinct non-blank items; required when fallback is null. */
  public List<String> list(String name, String fallback) {
    List<String> items = items(name, fallback);
    if (items.stream().distinct().count() != items.size()) {
      throw new IllegalArgumentException(
          PREFIX + name + " has duplicates: '" + String.join(",", items) + "'");
    }
    return items;
  }

  /** A comma-separated list of non-blank items, repeats allowed (numbers may repeat). */
  private List<String> items(String name, String fallback) {
    String v = fallback == null ? requiredString(name) : string(name, fallback);
    List<String> items = Arrays.stream(v.split(",")).map(String::trim).toList();
    if (items.isEmpty() || items.stream().anyMatch(String::isEmpty)) {
      throw new IllegalArgumentException(
          PREFIX + name + " must be a comma-separated list " + "without empty items: '" + v + "'");
    }
    return items;
  }

  /**
   * Tenant ids: {@code isolato.<idsName>} (comma-separated) or, when absent, {@code
   * isolato.<countName>} tenants named {@code <prefix>1 .. <prefix>N}.
   */
  public List<String> tenantIds(
      String idsName, String countName, String prefix, int fallbackCount) {
    if (has(idsName)) {
      return list(idsName, null);
    }
    int n = positiveInt(countName, fallbackCount);
    List<String> ids = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      ids.add(prefix + i);
    }
    return ids;
  }

  private static double positive(String name, String raw) {
    double d;
    try {
      d = Double.parseDouble(raw.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(PREFIX + name + " must be a number: '" + raw + "'");
    }
    if (!(d > 0) || Double.isInfinite(d)) {
      throw new IllegalArgumentException(PREFIX + name + " must be > 0: '" + raw + "'");
    }
    return d;
  }
}
