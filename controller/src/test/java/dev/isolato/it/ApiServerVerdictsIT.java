package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.isolato.DocClaim;
import dev.isolato.api.CalibrationController;
import dev.isolato.api.ProblemAdvice;
import dev.isolato.api.SloClassController;
import dev.isolato.api.SloClasses;
import dev.isolato.config.ClusterBootstrap;
import dev.isolato.config.IsolatoProperties;
import dev.isolato.config.KubernetesConfig;
import dev.isolato.slo.SloEngine;
import dev.isolato.tenancy.SloClass;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/**
 * How the REST API passes on what the API server answered its own calls, with the API's controllers
 * over clients of the real API server that lose races or hold bad credentials.
 */
class ApiServerVerdictsIT {
  static final IsolatoProperties PROPS =
      new IsolatoProperties(null, null, false, 0, 0, null, null, null);
  static KubernetesClient admin;

  @BeforeAll
  static void crdsAndAClass() {
    admin = RealApiServer.client();
    new ClusterBootstrap(admin, PROPS).installCrds();
    String cls =
        "{\"apiVersion\":\"isolato.dev/v1alpha1\",\"kind\":\"SloClass\",\"metadata\":{\"name\":\"race\"},\"spec\":"
            + ItBase.classJson("race", 2, 50, false).replaceFirst("(?s)^.*?\"spec\":", "");
    admin
        .resource(admin.getKubernetesSerialization().unmarshal(cls, SloClass.class))
        .serverSideApply();
  }

  @AfterAll
  static void close() {
    admin.resources(SloClass.class).withName("race").delete();
    admin.close();
  }

  @Test
  @DocClaim(
      "docs/api.md: on 409 it is re-read and written again, 3 attempts in all, then the API answers 409 (retry the POST).")
  @DocClaim("docs/api.md: a calibration lost 3 races")
  void aCalibrationThatLosesEveryRaceIsWrittenThreeTimesThenAnswers409() throws Exception {
    AtomicInteger writes = new AtomicInteger();
    // before each status write of the calibration, another writer changes the class
    Interceptor rival =
        new Interceptor() {
          @Override
          public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            if ("PATCH".equals(request.method())
                && request.uri().getPath().endsWith("/sloclasses/race/status")) {
              writes.incrementAndGet();
              admin
                  .resources(SloClass.class)
                  .withName("race")
                  .edit(
                      c -> {
                        c.getMetadata()
                            .setLabels(java.util.Map.of("rival", String.valueOf(writes.get())));
                        return c;
                      });
            }
          }
        };
    try (KubernetesClient racing =
        new KubernetesClientBuilder()
            .withConfig(KubernetesConfig.bounded(RealApiServer.config()))
            .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("rival", rival))
            .build()) {
      MockMvc mvc =
          MockMvcBuilders.standaloneSetup(
                  new CalibrationController(
                      racing, new SloClasses(racing, PROPS), SloEngine.withDefaults()))
              .setControllerAdvice(new ProblemAdvice())
              .build();
      MockHttpServletResponse r =
          mvc.perform(
                  post("/api/v1/calibrations")
                      .contentType(MediaType.APPLICATION_JSON)
                      .content(SloApiIT.runJson("race-1", "race", 1)))
              .andReturn()
              .getResponse();
      assertThat(r.getStatus()).as(r.getContentAsString()).isEqualTo(409);
      assertThat(r.getContentType()).isEqualTo("application/problem+json");
      assertThat(writes.get()).as("status writes").isEqualTo(3);
    }
    SloClass after = admin.resources(SloClass.class).withName("race").get();
    assertThat(after.getStatus() == null || after.getStatus().calibrationRuns.isEmpty())
        .as("nothing stored")
        .isTrue();
  }

  @Test
  @DocClaim(
      "docs/api.md: | 502 | the Kubernetes API server refused the controller's own credentials (its RBAC) |")
  void credentialsTheApiServerRefusesAre502NotTheCallersFault() throws Exception {
    // a controller identity without RBAC on sloclasses
    RealApiServer.namespace(admin, "verdicts");
    admin
        .resource(
            new ServiceAccountBuilder()
                .withNewMetadata()
                .withName("no-rbac")
                .withNamespace("verdicts")
                .endMetadata()
                .build())
        .serverSideApply();
    String token =
        admin
            .serviceAccounts()
            .inNamespace("verdicts")
            .withName("no-rbac")
            .tokenRequest(
                new TokenRequestBuilder()
                    .withNewSpec()
                    .withExpirationSeconds(600L)
                    .endSpec()
                    .build())
            .getStatus()
            .getToken();
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(admin.getConfiguration().getMasterUrl())
            .withTrustCerts(true)
            .withOauthToken(token)
            .build();
    try (KubernetesClient refused =
        new KubernetesClientBuilder().withConfig(KubernetesConfig.bounded(config)).build()) {
      MockMvc mvc =
          MockMvcBuilders.standaloneSetup(
                  new SloClassController(refused, new SloClasses(refused, PROPS)))
              .setControllerAdvice(new ProblemAdvice())
              .build();
      MockHttpServletResponse r =
          mvc.perform(get("/api/v1/slo-classes/race")).andReturn().getResponse();
      assertThat(r.getStatus()).as(r.getContentAsString()).isEqualTo(502);
      assertThat(r.getContentType()).isEqualTo("application/problem+json");
      assertThat(r.getContentAsString()).contains("HTTP 403", "sloclasses");
    }
  }
}
