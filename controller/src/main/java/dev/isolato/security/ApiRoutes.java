package dev.isolato.security;

import static org.springframework.http.HttpMethod.DELETE;
import static org.springframework.http.HttpMethod.GET;
import static org.springframework.http.HttpMethod.POST;
import static org.springframework.http.HttpMethod.PUT;

import java.util.List;
import java.util.function.Function;
import org.springframework.http.HttpMethod;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;

/**
 * The one table of which permission each REST route needs (docs/security.md). A route missing here
 * is for provider-admin tokens only; a test checks that every controller route is listed.
 */
public final class ApiRoutes {
  private ApiRoutes() {}

  /** A route pattern as the controller maps it, and the permission a call needs. */
  public record Route(
      HttpMethod method,
      String pattern,
      Function<RequestAuthorizationContext, Permission> permission) {}

  /**
   * The routes and the permission each needs.
   *
   * @param tenantNamespace where Tenant objects live (RBAC on tenants is granted there)
   */
  public static List<Route> all(String tenantNamespace) {
    Function<String, Permission> tenants =
        verb -> Permission.of(verb, "tenants").in(tenantNamespace);
    Function<String, Permission> classes = verb -> Permission.of(verb, "sloclasses");
    return List.of(
        new Route(GET, "/api/v1/tenants", c -> tenants.apply("list")),
        new Route(POST, "/api/v1/tenants", c -> tenants.apply("create")),
        new Route(
            GET,
            "/api/v1/tenants/{tenantId}",
            c -> tenants.apply("get").named(c.getVariables().get("tenantId"))),
        new Route(
            PUT,
            "/api/v1/tenants/{tenantId}",
            c -> tenants.apply("update").named(c.getVariables().get("tenantId"))),
        new Route(
            DELETE,
            "/api/v1/tenants/{tenantId}",
            c -> tenants.apply("delete").named(c.getVariables().get("tenantId"))),
        new Route(GET, "/api/v1/slo-classes", c -> classes.apply("list")),
        new Route(POST, "/api/v1/slo-classes", c -> classes.apply("create")),
        new Route(
            GET,
            "/api/v1/slo-classes/{name}",
            c -> classes.apply("get").named(c.getVariables().get("name"))),
        new Route(
            PUT,
            "/api/v1/slo-classes/{name}",
            c -> classes.apply("update").named(c.getVariables().get("name"))),
        new Route(
            DELETE,
            "/api/v1/slo-classes/{name}",
            c -> classes.apply("delete").named(c.getVariables().get("name"))),
        // the plan lists the class's tenants and their rates: more than the class itself shows
        new Route(
            GET,
            "/api/v1/slo-classes/{name}/plan",
            c -> classes.apply("get").subresource("plan").named(c.getVariables().get("name"))),
        new Route(
            GET,
            "/api/v1/slo-classes/{name}/calibration",
            c -> classes.apply("get").subresource("status").named(c.getVariables().get("name"))),
        // starting one creates a replica and a Job on the class's behalf: an update of its status
        new Route(
            POST,
            "/api/v1/slo-classes/{name}/calibrations",
            c -> classes.apply("update").subresource("status").named(c.getVariables().get("name"))),
        new Route(
            GET,
            "/api/v1/slo-classes/{name}/calibrations/{id}",
            c -> classes.apply("get").subresource("status").named(c.getVariables().get("name"))),
        new Route(
            GET,
            "/api/v1/calibrations",
            c ->
                classes
                    .apply("get")
                    .subresource("status")
                    .named(c.getRequest().getParameter("sloClass"))),
        // the class is named in the body, so the grant cannot be limited to resourceNames
        new Route(POST, "/api/v1/calibrations", c -> classes.apply("update").subresource("status")),
        new Route(POST, "/api/v1/plans:simulate", c -> Permission.of("create", "simulations")),
        // benchmarks load the whole cluster: no RBAC grant can delegate that, so provider-admin
        // tokens only (a null permission)
        new Route(GET, "/api/v1/pipeline/analyses", c -> null),
        new Route(POST, "/api/v1/pipeline/analyses", c -> null),
        new Route(GET, "/api/v1/pipeline/analyses/{id}", c -> null));
  }
}
