package dev.isolato.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import dev.isolato.config.ApiCallCounter;
import dev.isolato.config.IsolatoProperties;
import dev.isolato.it.RealApiServer;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** SubjectAccessReviews against a real kube-apiserver's RBAC: grants, names, per-user limits. */
class AccessReviewsIT {
  static final String NS = "access-reviews-it";
  static Config config;

  @BeforeAll
  static void rbac() throws Exception {
    Path kc = RealApiServer.kubeconfig();
    config = Config.fromKubeconfig(null, Files.readString(kc), kc.toString());
    try (KubernetesClient admin = new KubernetesClientBuilder().withConfig(config).build()) {
      admin
          .namespaces()
          .resource(
              new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                  .withNewMetadata()
                  .withName(NS)
                  .endMetadata()
                  .build())
          .serverSideApply();
      role(admin, "all-tenants", "alice", null);
      role(admin, "tenant-acme", "acme-portal", "acme");
    }
  }

  static void role(KubernetesClient admin, String name, String user, String onlyName) {
    var rule =
        new RoleBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(NS)
            .endMetadata()
            .addNewRule()
            .withApiGroups("isolato.dev")
            .withResources("tenants")
            .withVerbs("get", "list");
    if (onlyName != null) {
      rule.withResourceNames(onlyName);
    }
    admin.resource(rule.endRule().build()).serverSideApply();
    admin
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", name)
                .addNewSubject()
                .withKind("User")
                .withName(user)
                .withApiGroup("rbac.authorization.k8s.io")
                .endSubject()
                .build())
        .serverSideApply();
  }

  static Caller.ClusterUser user(String name) {
    return new Caller.ClusterUser(name, null, List.of("system:authenticated"), Map.of());
  }

  static Permission getTenant(String name) {
    return Permission.of("get", "tenants").in(NS).named(name);
  }

  @Test
  void aGrantOnAllTenantsCostsOneReviewForAnyNumberOfNamesAndResourceNamesAreHonoured() {
    ApiCallCounter calls = new ApiCallCounter(new SimpleMeterRegistry());
    try (KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientBuilderConsumer(
                b -> b.addOrReplaceInterceptor(ApiCallCounter.NAME, calls))
            .build()) {
      AccessReviews reviews = new AccessReviews(client, settings(5, 1), System::nanoTime);
      for (int i = 0; i < 200; i++) {
        assertThat(reviews.check(user("alice"), getTenant("t-" + i)).isGranted()).isTrue();
      }
      assertThat(calls.requests()).as("SubjectAccessReviews for 200 tenants").isEqualTo(1);
      assertThat(
              reviews
                  .check(user("alice"), Permission.of("delete", "tenants").in(NS).named("t-1"))
                  .isGranted())
          .isFalse();

      assertThat(reviews.check(user("acme-portal"), getTenant("acme")).isGranted()).isTrue();
      AccessDecision other = reviews.check(user("acme-portal"), getTenant("globex"));
      assertThat(other.isGranted()).isFalse();
      assertThat(other.permission()).isEqualTo(getTenant("globex"));
      assertThat(
              reviews
                  .check(user("acme-portal"), Permission.of("list", "tenants").in(NS))
                  .isGranted())
          .isFalse();
    }
  }

  @Test
  @DocClaim("docs/security.md: ever new names gets 429, not the API server (AccessReviewsIT).")
  @DocClaim("docs/api.md: or permission checks of one user")
  void aUserAskingForEverNewNamesIsThrottledPerUser() {
    ApiCallCounter calls = new ApiCallCounter(new SimpleMeterRegistry());
    AtomicLong now = new AtomicLong();
    try (KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientBuilderConsumer(
                b -> b.addOrReplaceInterceptor(ApiCallCounter.NAME, calls))
            .build()) {
      AccessReviews reviews = new AccessReviews(client, settings(10, 1), now::get);
      int denied = 0;
      int throttled = 0;
      for (int i = 0; i < 1000; i++) {
        try {
          denied += reviews.check(user("mallory"), getTenant("guess-" + i)).isGranted() ? 0 : 1;
        } catch (AuthExceptions.Unchecked e) {
          assertThat(e.status().value()).isEqualTo(429);
          throttled++;
        }
      }
      assertThat(calls.requests())
          .as("the burst of 10 (the unnamed check is one of them)")
          .isEqualTo(10);
      assertThat(denied).isEqualTo(9);
      assertThat(throttled).isEqualTo(991);
      assertThat(reviews.check(user("alice"), getTenant("x")).isGranted())
          .as("another user has its own bucket")
          .isTrue();
      now.addAndGet(Duration.ofSeconds(1).toNanos());
      assertThat(reviews.check(user("mallory"), getTenant("later")).isGranted())
          .as("refilled")
          .isFalse();
    }
  }

  static IsolatoProperties.Api settings(int burst, double perSecond) {
    return new IsolatoProperties.Api(
        null, null, null, null, true, "isolato", Duration.ofMinutes(5), 1000, burst, perSecond);
  }
}
