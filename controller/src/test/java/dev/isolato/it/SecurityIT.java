package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.isolato.DocClaim;
import dev.isolato.security.ApiRoutes;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.Tenant;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Issue 9 items 1 and 2 on a real server and a real kube-apiserver with RBAC: every request path is
 * authenticated (raw request lines, as curl sends them), every call authorized, static tokens
 * rotate, cluster identities go through TokenReview (audience "isolato") and RBAC.
 */
class SecurityIT extends ItBase {
  static final String EVIL =
      """
      {"tenantId":"evil","sloClass":"gold","committedRps":1,"profile":{"cpu":1,"memory":0,"io":0}}""";
  static final String CLIENTS = "sec-clients";

  /** A little more than the token TTL: how long a rotated or newly granted credential may take. */
  static final Duration SETTLE = TOKEN_TTL.plusSeconds(3);

  @Autowired
  @Qualifier("requestMappingHandlerMapping")
  RequestMappingHandlerMapping mvc;

  @Test
  @Order(1)
  void everyControllerRouteHasExactlyOneRuleInTheRouteTable() {
    Set<String> mapped =
        mvc.getHandlerMethods().entrySet().stream()
            .filter(e -> e.getValue().getBeanType().getPackageName().equals("dev.isolato.api"))
            .flatMap(
                e ->
                    e.getKey().getMethodsCondition().getMethods().stream()
                        .flatMap(m -> e.getKey().getPatternValues().stream().map(p -> m + " " + p)))
            .collect(Collectors.toSet());
    List<String> table =
        ApiRoutes.all(NS).stream().map(r -> r.method().name() + " " + r.pattern()).toList();
    assertThat(table).doesNotHaveDuplicates();
    assertThat(Set.copyOf(table)).isEqualTo(mapped);
  }

  @Test
  @Order(2)
  @DocClaim(
      "docs/security.md: non-normalized paths (`;` parameters, `//`, `.`/`..` segments, encoded `/` `%` `.`) with 400")
  @DocClaim("docs/api.md: a non-normalized request path (`;`, `//`, `..`, encoded `/`)")
  void theIssuesReproductionsAreRefused() throws Exception {
    RawHttp.Reply post = RawHttp.send(port, "POST", "/api;x/v1/tenants", EVIL);
    RawHttp.Reply list = RawHttp.send(port, "GET", "/%61pi/v1/tenants", null);
    RawHttp.Reply delete = RawHttp.send(port, "DELETE", "/%61pi/v1/tenants/evil", null);
    assertThat(post.status()).as("';' parameter: the firewall").isEqualTo(400);
    assertThat(post.header("Content-Type")).startsWith("application/problem+json");
    assertThat(list.status()).isEqualTo(401);
    assertThat(list.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"isolato\"");
    assertThat(list.header("Content-Type")).startsWith("application/problem+json");
    assertThat(delete.status()).isEqualTo(401);
    assertThat(kube.resources(Tenant.class).inNamespace(NS).withName("evil").get()).isNull();
  }

  /** The route with its variables filled in (and the query a GET of /calibrations needs). */
  static String sample(ApiRoutes.Route r) {
    String path = r.pattern().replaceAll("\\{[^}]+}", "evil");
    return path.equals("/api/v1/calibrations") && r.method().name().equals("GET")
        ? path + "?sloClass=evil"
        : path;
  }

  /** Spellings of one path that a server might route to the same controller. */
  static List<String> variants(String path) {
    String rest = path.substring("/api/".length());
    List<String> v =
        new ArrayList<>(
            List.of(
                "/%61pi/" + rest,
                "/api/%76" + rest.substring(1),
                "/api%2F" + rest,
                "/api%2f" + rest,
                "/api;x/" + rest,
                "/api/" + rest + ";x",
                "/api;jsessionid=1/" + rest,
                "//api/" + rest,
                "/api//" + rest,
                "/api/" + rest.replaceFirst("/", "//"),
                "/x/../api/" + rest,
                "/api/./" + rest,
                "/api/v1/x/%2e%2e/" + rest.substring(3),
                "/api/%2e/" + rest,
                "/API/" + rest,
                "/Api/" + rest,
                "/api/V1/" + rest.substring(3),
                "/api/" + rest.toUpperCase(java.util.Locale.ROOT)));
    if (path.contains(":")) {
      v.add(path.replace(":", "%3A"));
    }
    return v;
  }

  /**
   * Sends every route, as written and in every spelling of {@link #variants}, with the given
   * headers; counts the statuses and lists every answer outside {@code allowed}.
   */
  static Map<Integer, Integer> sweep(
      int port, Set<Integer> allowed, List<String> failures, String... headers) throws Exception {
    Map<Integer, Integer> seen = new java.util.TreeMap<>();
    for (ApiRoutes.Route r : ApiRoutes.all(NS)) {
      String body = r.method().name().startsWith("P") ? EVIL : null;
      List<String> paths = new ArrayList<>(variants(sample(r)));
      paths.add(sample(r));
      for (String path : paths) {
        RawHttp.Reply reply = RawHttp.send(port, r.method().name(), path, body, headers);
        seen.merge(reply.status(), 1, Integer::sum);
        if (!allowed.contains(reply.status())) {
          failures.add(r.method() + " " + path + " → " + reply.status() + " " + reply.body());
        }
      }
    }
    return seen;
  }

  @Test
  @Order(3)
  @DocClaim("docs/security.md: needs `Authorization: Bearer <token>` (deny by default;")
  void noSpellingOfAnyRouteGetsInWithoutAToken() throws Exception {
    List<String> failures = new ArrayList<>();
    Map<Integer, Integer> seen = sweep(port, Set.of(400, 401), failures);
    assertThat(failures).isEmpty();
    assertThat(seen)
        .as("both the firewall (400) and authentication (401) answered")
        .containsOnlyKeys(400, 401);
    for (ApiRoutes.Route r : ApiRoutes.all(NS)) {
      RawHttp.Reply plain =
          RawHttp.send(
              port, r.method().name(), sample(r), r.method().name().startsWith("P") ? EVIL : null);
      assertThat(plain.status()).as(r.method() + " " + sample(r)).isEqualTo(401);
      assertThat(plain.header("WWW-Authenticate")).startsWith("Bearer");
      assertThat(plain.header("Content-Type")).startsWith("application/problem+json");
    }
    assertThat(kube.resources(Tenant.class).inNamespace(NS).withName("evil").get()).isNull();
    assertThat(kube.resources(SloClass.class).withName("evil").get()).isNull();
  }

  @Test
  @Order(4)
  void noSpellingOfAnyRouteLetsATenantTokenPastItsOwnTenant() throws Exception {
    List<String> failures = new ArrayList<>();
    Map<Integer, Integer> seen =
        sweep(port, Set.of(400, 403), failures, "Authorization", "Bearer " + TENANT_TOKEN);
    assertThat(failures).isEmpty();
    assertThat(seen).containsOnlyKeys(400, 403);
  }

  @Test
  @Order(5)
  void probesAndTheApiDocumentStayOpen() throws Exception {
    assertThat(call("GET", "/readyz", null).status()).isEqualTo(200);
    assertThat(call("GET", "/livez", null).status()).isEqualTo(200);
    assertThat(call("GET", "/v3/api-docs", null).status()).isEqualTo(200);
    assertThat(call("GET", "/swagger-ui.html", null).status()).isBetween(200, 399);
    assertThat(call("GET", "/", null).status()).isEqualTo(401);
    assertThat(call("GET", "/actuator/health", null).status())
        .as("actuator is on the management port")
        .isEqualTo(401);
    assertThat(callPort(managementPort, "GET", "/actuator/health/liveness", null).status())
        .isEqualTo(200);
  }

  @Test
  @Order(10)
  @DocClaim("docs/api.md: a refused one answers **403** problem+json")
  @DocClaim("docs/api.md: | 403 | the caller may not make this call |")
  @DocClaim("docs/security.md: A refused call answers **403** problem+json naming the permission")
  @DocClaim("docs/troubleshooting.md: 403: the token is known but its")
  void aTenantTokenReadsItsOwnTenantAndNothingElse() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson("sec", 2, 100, false)).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("sec-own", "sec", 5, "shared")).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("sec-other", "sec", 5, "shared")).status())
        .isEqualTo(201);

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              Reply own = as(TENANT_TOKEN, "GET", "/api/v1/tenants/sec-own", null);
              assertThat(own.status()).isEqualTo(200);
              assertThat(own.body().at("/status/phase").asText())
                  .as("with its status")
                  .isNotEmpty();
            });
    Reply other = as(TENANT_TOKEN, "GET", "/api/v1/tenants/sec-other", null);
    assertThat(other.status()).isEqualTo(403);
    assertThat(other.raw().headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    assertThat(other.body().get("detail").asText())
        .contains("may not get tenants.isolato.dev 'sec-other'", "own tenant ('sec-own')");
    assertThat(other.body().at("/permission/verb").asText()).isEqualTo("get");
    assertThat(other.body().at("/permission/name").asText()).isEqualTo("sec-other");
    assertThat(
            as(TENANT_TOKEN, "GET", "/api/v1/tenants", null).body().at("/permission/verb").asText())
        .isEqualTo("list");
    assertThat(as(TENANT_TOKEN, "GET", "/api/v1/tenants", null).status()).isEqualTo(403);
    assertThat(
            as(
                    TENANT_TOKEN,
                    "PUT",
                    "/api/v1/tenants/sec-own",
                    tenantJson("sec-own", "sec", 50, "shared"))
                .status())
        .isEqualTo(403);
    assertThat(as(TENANT_TOKEN, "DELETE", "/api/v1/tenants/sec-own", null).status()).isEqualTo(403);
    assertThat(
            as(TENANT_TOKEN, "POST", "/api/v1/tenants", tenantJson("sec-more", "sec", 1, "shared"))
                .status())
        .isEqualTo(403);
    assertThat(as(TENANT_TOKEN, "GET", "/api/v1/slo-classes/sec", null).status()).isEqualTo(403);
    assertThat(
            as(
                    TENANT_TOKEN,
                    "POST",
                    "/api/v1/plans:simulate",
                    "{\"sloClass\":\"sec\",\"tenants\":[]}")
                .status())
        .isEqualTo(403);
    assertThat(as(TENANT_TOKEN, "GET", "/v1/unmapped", null).status())
        .as("unmapped paths are admin-only")
        .isEqualTo(403);
    assertThat(
            kube.resources(Tenant.class)
                .inNamespace(NS)
                .withName("sec-own")
                .get()
                .getSpec()
                .committedRps)
        .isEqualTo(5);
  }

  @Test
  @Order(20)
  @DocClaim(
      "docs/security.md: A token that is neither static nor accepted by TokenReview for the audience gets 401.")
  void clusterIdentitiesNeedTheAudienceAValidSignatureAndRbac() throws Exception {
    kube.resource(new NamespaceBuilder().withNewMetadata().withName(CLIENTS).endMetadata().build())
        .serverSideApply();
    String nobody = saToken("sec-nobody", true);

    Reply noRbac = as(nobody, "GET", "/api/v1/slo-classes", null);
    assertThat(noRbac.status()).isEqualTo(403);
    assertThat(noRbac.body().at("/permission/resource").asText()).isEqualTo("sloclasses");
    assertThat(noRbac.body().at("/permission/verb").asText()).isEqualTo("list");
    assertThat(noRbac.body().get("detail").asText())
        .contains(
            "system:serviceaccount:sec-clients:sec-nobody",
            "kubectl auth can-i list sloclasses.isolato.dev --as system:serviceaccount:sec-clients:sec-nobody");

    Reply wrongAudience = as(saToken("sec-nobody", false), "GET", "/api/v1/slo-classes", null);
    assertThat(wrongAudience.status())
        .as("a token for the API server's own audience (like every automounted one)")
        .isEqualTo(401);
    assertThat(wrongAudience.raw().headers().firstValue("WWW-Authenticate"))
        .hasValue("Bearer realm=\"isolato\", error=\"invalid_token\"");

    String[] parts = nobody.split("\\.", -1);
    String forged =
        parts[0]
            + "."
            + parts[1]
            + "."
            + Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(
                    UUID.randomUUID().toString().repeat(8).getBytes(StandardCharsets.UTF_8));
    assertThat(as(forged, "GET", "/api/v1/slo-classes", null).status())
        .as("forged signature")
        .isEqualTo(401);
  }

  @Test
  @Order(21)
  void aRoleBindingGrantsExactlyWhatItSays() throws Exception {
    String reader = saToken("sec-reader", true);
    assertThat(as(reader, "GET", "/api/v1/slo-classes", null).status()).isEqualTo(403);
    kube.resource(
            new ClusterRoleBuilder()
                .withNewMetadata()
                .withName("sec-class-reader")
                .endMetadata()
                .addNewRule()
                .withApiGroups("isolato.dev")
                .withResources("sloclasses")
                .withVerbs("get", "list")
                .endRule()
                .build())
        .create();
    kube.resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName("sec-class-reader")
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "sec-class-reader")
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName("sec-reader")
                .withNamespace(CLIENTS)
                .endSubject()
                .build())
        .create();
    await()
        .atMost(SETTLE)
        .untilAsserted(
            () ->
                assertThat(as(reader, "GET", "/api/v1/slo-classes", null).status()).isEqualTo(200));
    assertThat(as(reader, "GET", "/api/v1/slo-classes/sec", null).status()).isEqualTo(200);
    assertThat(
            as(reader, "GET", "/api/v1/slo-classes/sec/plan", null)
                .body()
                .at("/permission/subresource")
                .asText())
        .as("the plan (tenants and rates) is a subresource of its own")
        .isEqualTo("plan");
    assertThat(as(reader, "POST", "/api/v1/slo-classes", classJson("sec-x", 1, 10, false)).status())
        .isEqualTo(403);
    assertThat(as(reader, "GET", "/api/v1/tenants", null).status()).isEqualTo(403);

    // a tenant's own identity: get on its Tenant object only
    String tenant = saToken("sec-tenant", true);
    kube.resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName("sec-own-tenant")
                .withNamespace(NS)
                .endMetadata()
                .addNewRule()
                .withApiGroups("isolato.dev")
                .withResources("tenants")
                .withResourceNames("sec-own")
                .withVerbs("get")
                .endRule()
                .build())
        .create();
    kube.resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName("sec-own-tenant")
                .withNamespace(NS)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", "sec-own-tenant")
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName("sec-tenant")
                .withNamespace(CLIENTS)
                .endSubject()
                .build())
        .create();
    await()
        .atMost(SETTLE)
        .untilAsserted(
            () ->
                assertThat(as(tenant, "GET", "/api/v1/tenants/sec-own", null).status())
                    .isEqualTo(200));
    assertThat(as(tenant, "GET", "/api/v1/tenants/sec-other", null).status()).isEqualTo(403);
    assertThat(as(tenant, "GET", "/api/v1/tenants", null).status()).isEqualTo(403);
    assertThat(as(tenant, "DELETE", "/api/v1/tenants/sec-own", null).status()).isEqualTo(403);
  }

  @Test
  @Order(22)
  void theProviderAdminRoleOfTheDocsGrantsEveryRoute() throws Exception {
    String admin = saToken("sec-admin", true);
    // docs/security.md, "isolato-provider-admin"
    kube.resource(
            new ClusterRoleBuilder()
                .withNewMetadata()
                .withName("sec-provider-admin")
                .endMetadata()
                .addNewRule()
                .withApiGroups("isolato.dev")
                .withResources(
                    "tenants", "sloclasses", "sloclasses/status", "sloclasses/plan", "simulations")
                .withVerbs("get", "list", "create", "update", "delete")
                .endRule()
                .build())
        .create();
    kube.resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName("sec-provider-admin")
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "sec-provider-admin")
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName("sec-admin")
                .withNamespace(CLIENTS)
                .endSubject()
                .build())
        .create();
    await()
        .atMost(SETTLE)
        .untilAsserted(
            () -> assertThat(as(admin, "GET", "/api/v1/tenants", null).status()).isEqualTo(200));
    assertThat(
            as(admin, "POST", "/api/v1/plans:simulate", "{\"sloClass\":\"sec\",\"tenants\":[]}")
                .status())
        .isEqualTo(200);
    assertThat(as(admin, "GET", "/api/v1/slo-classes/sec/plan", null).status()).isEqualTo(200);
    assertThat(as(admin, "GET", "/api/v1/slo-classes/sec/calibration", null).status())
        .isEqualTo(200);
    assertThat(as(admin, "GET", "/api/v1/calibrations?sloClass=sec", null).status()).isEqualTo(200);
    assertThat(as(admin, "POST", "/api/v1/calibrations", "{}").status())
        .as("authorized, then validated")
        .isEqualTo(400);
    assertThat(
            as(admin, "POST", "/api/v1/tenants", tenantJson("sec-by-sa", "sec", 1, "shared"))
                .status())
        .isEqualTo(201);
    assertThat(as(admin, "DELETE", "/api/v1/tenants/sec-by-sa", null).status()).isEqualTo(202);
    assertThat(as(admin, "GET", "/api/v1/unmapped", null).status())
        .as("unmapped paths stay admin-token only")
        .isEqualTo(403);
  }

  @Test
  @Order(30)
  void aRotatedStaticTokenStopsWorkingWithinTheTtlAndTheNewOneWorks() throws Exception {
    Files.writeString(tokenFile, TOKEN + "\nrotating-1\n");
    await()
        .atMost(SETTLE)
        .untilAsserted(
            () ->
                assertThat(as("rotating-1", "GET", "/api/v1/slo-classes", null).status())
                    .isEqualTo(200));
    Files.writeString(tokenFile, TOKEN + "\nrotating-2\n");
    await()
        .atMost(SETTLE)
        .untilAsserted(
            () -> {
              assertThat(as("rotating-1", "GET", "/api/v1/slo-classes", null).status())
                  .isEqualTo(401);
              assertThat(as("rotating-2", "GET", "/api/v1/slo-classes", null).status())
                  .isEqualTo(200);
            });

    kube.resource(secret("isolato-api-tokens", Map.of("ci", "secret-token-1"))).serverSideApply();
    await()
        .atMost(SETTLE)
        .untilAsserted(
            () ->
                assertThat(as("secret-token-1", "GET", "/api/v1/slo-classes", null).status())
                    .isEqualTo(200));
    kube.resource(secret("isolato-api-tokens", Map.of("ci", "secret-token-2"))).serverSideApply();
    await()
        .atMost(SETTLE)
        .untilAsserted(
            () -> {
              assertThat(as("secret-token-1", "GET", "/api/v1/slo-classes", null).status())
                  .isEqualTo(401);
              assertThat(as("secret-token-2", "GET", "/api/v1/slo-classes", null).status())
                  .isEqualTo(200);
            });

    kube.resource(secret("isolato-tenant-tokens", Map.of("sec-own", "tenant-secret-1")))
        .serverSideApply();
    await()
        .atMost(SETTLE)
        .untilAsserted(
            () ->
                assertThat(as("tenant-secret-1", "GET", "/api/v1/tenants/sec-own", null).status())
                    .isEqualTo(200));
    assertThat(as("tenant-secret-1", "GET", "/api/v1/tenants", null).status()).isEqualTo(403);
    kube.secrets().inNamespace(NS).withName("isolato-api-tokens").delete();
    kube.secrets().inNamespace(NS).withName("isolato-tenant-tokens").delete();
  }

  @Test
  @Order(40)
  @DocClaim("docs/api.md: 429 for floods of unknown tokens")
  @DocClaim("docs/api.md: | 429 | too many unknown bearer tokens")
  @DocClaim("docs/security.md: more answer **429** problem+json with `Retry-After: 1`")
  void aFloodOfRandomTokensIsThrottledWith429() throws Exception {
    int limited = 0;
    int other = 0;
    for (int i = 0; i < 200; i++) {
      Reply r = as(UUID.randomUUID().toString(), "GET", "/api/v1/tenants", null);
      if (r.status() == 429) {
        limited++;
        assertThat(r.raw().headers().firstValue("Retry-After")).hasValue("1");
        assertThat(r.body().get("title").asText()).isEqualTo("Too many unknown tokens");
      } else {
        other += r.status() == 401 ? 0 : 1;
      }
    }
    assertThat(limited).as("answered 429 without asking the API server").isPositive();
    assertThat(other).as("every other answer is 401").isZero();
    assertThat(api("GET", "/api/v1/tenants", null).status())
        .as("static tokens are not throttled")
        .isEqualTo(200);
    // leave the bucket refilled for whatever runs next
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> as(UUID.randomUUID().toString(), "GET", "/api/v1/tenants", null).status() == 401);
  }

  private static String saToken(String name, boolean isolatoAudience) {
    kube.resource(
            new ServiceAccountBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(CLIENTS)
                .endMetadata()
                .build())
        .serverSideApply();
    var spec = new TokenRequestBuilder().withNewSpec().withExpirationSeconds(600L);
    if (isolatoAudience) {
      spec.withAudiences("isolato");
    }
    return kube.serviceAccounts()
        .inNamespace(CLIENTS)
        .withName(name)
        .tokenRequest(spec.endSpec().build())
        .getStatus()
        .getToken();
  }

  private static io.fabric8.kubernetes.api.model.Secret secret(
      String name, Map<String, String> values) {
    Map<String, String> data = new java.util.HashMap<>();
    values.forEach(
        (k, v) ->
            data.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(NS)
        .endMetadata()
        .withData(data)
        .build();
  }
}
