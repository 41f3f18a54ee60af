package dev.isolato.metrics;

import java.util.HashMap;
import java.util.Map;

/**
 * Pure: reads samples from a Prometheus text exposition ({@code name{labels} value [timestamp]}
 * lines), as served by saas-bench's pods and Kubernetes' components.
 */
public final class Exposition {

  private Exposition() {}

  /** {@code metric} summed over all its label sets; 0 when absent. */
  public static double sum(String exposition, String metric) {
    return sum(exposition, metric, Map.of());
  }

  /**
   * {@code metric} summed over the label sets that have every label of {@code labels} with its
   * value; 0 when none. A malformed line counts as absent.
   */
  public static double sum(String exposition, String metric, Map<String, String> labels) {
    double total = 0;
    for (String line : exposition.split("\n", -1)) {
      if (!line.startsWith(metric) || line.length() <= metric.length()) {
        continue;
      }
      char next = line.charAt(metric.length());
      if (next != '{' && next != ' ') {
        continue;
      }
      int valueAt = metric.length();
      if (next == '{') {
        Map<String, String> have = new HashMap<>();
        valueAt = labels(line, metric.length() + 1, have);
        if (valueAt < 0 || !have.entrySet().containsAll(labels.entrySet())) {
          continue;
        }
      } else if (!labels.isEmpty()) {
        continue;
      }
      String rest = line.substring(valueAt).trim();
      int space = rest.indexOf(' ');
      try {
        total += Double.parseDouble(space < 0 ? rest : rest.substring(0, space));
      } catch (NumberFormatException e) {
        // a malformed sample counts as absent
      }
    }
    return total;
  }

  /**
   * Parses {@code k="v",…}} from {@code at} into {@code out}; returns the index after the closing
   * brace, or -1 when the label set is malformed.
   */
  private static int labels(String line, int at, Map<String, String> out) {
    int i = at;
    while (i < line.length()) {
      if (line.charAt(i) == '}') {
        return i + 1;
      }
      int eq = line.indexOf("=\"", i);
      if (eq < 0) {
        return -1;
      }
      String key = line.substring(i, eq).trim();
      StringBuilder value = new StringBuilder();
      int j = eq + 2;
      for (; j < line.length() && line.charAt(j) != '"'; j++) {
        char c = line.charAt(j);
        if (c == '\\' && j + 1 < line.length()) {
          char e = line.charAt(++j);
          value.append(e == 'n' ? '\n' : e);
        } else {
          value.append(c);
        }
      }
      if (j >= line.length()) {
        return -1;
      }
      out.put(key, value.toString());
      i = j + 1;
      if (i < line.length() && line.charAt(i) == ',') {
        i++;
      }
    }
    return -1;
  }
}
