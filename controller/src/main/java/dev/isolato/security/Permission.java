package dev.isolato.security;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one API call needs, as a Kubernetes RBAC request on the {@code isolato.dev} group, so that a
 * cluster admin grants it with ordinary Roles (docs/security.md).
 *
 * @param verb get, list, create, update, delete
 * @param resource tenants, sloclasses, simulations
 * @param subresource e.g. status; null when none
 * @param name the object's name, or null for collection calls (and calls naming it in the body)
 * @param namespace tenants live in the controller's namespace; null for cluster-scoped resources
 */
public record Permission(
    String verb, String resource, String subresource, String name, String namespace) {
  public static final String GROUP = "isolato.dev";

  public static Permission of(String verb, String resource) {
    return new Permission(verb, resource, null, null, null);
  }

  public Permission subresource(String sub) {
    return new Permission(verb, resource, sub, name, namespace);
  }

  public Permission named(String objectName) {
    return new Permission(
        verb,
        resource,
        subresource,
        objectName == null || objectName.isBlank() ? null : objectName,
        namespace);
  }

  public Permission in(String ns) {
    return new Permission(verb, resource, subresource, name, ns);
  }

  /** e.g. {@code get tenants.isolato.dev/acme in namespace isolato-system}. */
  public String describe() {
    return verb
        + " "
        + resource
        + (subresource == null ? "" : "/" + subresource)
        + "."
        + GROUP
        + (name == null ? "" : " '" + name + "'")
        + (namespace == null ? "" : " in namespace " + namespace);
  }

  /** The kubectl command an operator runs to check this permission for a user. */
  public String canICommand(String user) {
    return "kubectl auth can-i "
        + verb
        + " "
        + resource
        + "."
        + GROUP
        + (name == null ? "" : "/" + name)
        + (subresource == null ? "" : " --subresource=" + subresource)
        + (namespace == null ? "" : " -n " + namespace)
        + " --as "
        + user;
  }

  /** The members of a 403 problem's {@code permission} property. */
  public Map<String, String> asMap() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("verb", verb);
    m.put("group", GROUP);
    m.put("resource", resource);
    if (subresource != null) {
      m.put("subresource", subresource);
    }
    if (name != null) {
      m.put("name", name);
    }
    if (namespace != null) {
      m.put("namespace", namespace);
    }
    return m;
  }
}
