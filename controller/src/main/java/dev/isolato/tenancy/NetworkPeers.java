package dev.isolato.tenancy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who may reach a pool's Service port (everything else is denied by the pool's NetworkPolicy): the
 * provider's ingress and the controller's table pushes.
 *
 * @param ingressNamespaces labels of the namespaces the provider's ingress runs in (empty: none)
 * @param ingressPods labels of the ingress pods within those namespaces (empty: any pod there)
 * @param ingressCidrs address blocks of ingress outside the cluster's pods (e.g. a node's IP)
 * @param controllerNamespace namespace of an in-cluster controller (its pods push tables)
 * @param controllerCidrs address blocks a controller outside the pod network pushes from
 */
public record NetworkPeers(
    Map<String, String> ingressNamespaces,
    Map<String, String> ingressPods,
    List<String> ingressCidrs,
    String controllerNamespace,
    List<String> controllerCidrs) {
  public NetworkPeers {
    ingressNamespaces = Map.copyOf(ingressNamespaces);
    ingressPods = Map.copyOf(ingressPods);
    ingressCidrs = List.copyOf(ingressCidrs);
    controllerCidrs = List.copyOf(controllerCidrs);
  }

  /**
   * A label selector written as {@code key=value,key=value} (the form of kubectl's {@code -l},
   * equality only), so that it fits an environment variable.
   */
  public static Map<String, String> selector(String text) {
    Map<String, String> m = new LinkedHashMap<>();
    if (text == null || text.isBlank()) {
      return m;
    }
    for (String part : text.split(",", -1)) {
      int eq = part.indexOf('=');
      if (eq <= 0 || eq == part.length() - 1) {
        throw new IllegalArgumentException(
            "label selector '"
                + text
                + "': expected key=value[,key=value], got '"
                + part.strip()
                + "'");
      }
      m.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
    }
    return m;
  }
}
