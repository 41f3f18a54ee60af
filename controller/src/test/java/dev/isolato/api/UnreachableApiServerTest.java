package dev.isolato.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.isolato.DocClaim;
import dev.isolato.config.IsolatoProperties;
import dev.isolato.config.KubernetesConfig;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.RequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/** With the API server down or hanging, a request answers 503 problem+json within 5 s. */
class UnreachableApiServerTest {
  private static final String TENANT =
      """
      {"tenantId":"acme","sloClass":"gold","committedRps":5}""";

  @Test
  void refusedConnectionsAnswer503Quickly() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    assertAnswers503Within5s(port);
  }

  @Test
  @DocClaim("docs/api.md: connection 2 s, request 3.5 s, no retry")
  @DocClaim("docs/api.md: With the API server stopped, a request is answered 503 within 5 s")
  @DocClaim("docs/api.md: | 503 | the Kubernetes API server did not answer within 3.5 s")
  void anApiServerThatNeverAnswersIsCutOffBy503() throws Exception {
    List<Socket> held = new ArrayList<>();
    try (ServerSocket s = new ServerSocket(0)) {
      Thread acceptor =
          new Thread(
              () -> {
                while (!s.isClosed()) {
                  try {
                    held.add(s.accept());
                  } catch (java.io.IOException e) {
                    return;
                  }
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      assertAnswers503Within5s(s.getLocalPort());
      acceptor.interrupt();
    } finally {
      for (Socket c : held) {
        c.close();
      }
    }
  }

  @Test
  @DocClaim("docs/api.md: `Retry-After: 1` when the API server did not answer")
  @DocClaim("docs/api.md: a 5xx has none")
  void anApiServerThatAnswers5xxIs503WithoutRetryAfter() {
    ResponseEntity<ProblemDetail> r =
        new ProblemAdvice().kubernetes(new KubernetesClientException("etcd is down", 500, null));
    assertThat(r.getStatusCode().value()).isEqualTo(503);
    assertThat(r.getHeaders().containsKey("Retry-After")).isFalse();
  }

  @Test
  @DocClaim("docs/api.md: a 429 of the API server's flow control is 503 with its `Retry-After`")
  void anApiServerThatAsksToComeBackLaterIs503WithItsRetryAfter() {
    for (var asked : java.util.Arrays.asList(null, 0, 3, 600)) {
      var status =
          new StatusBuilder()
              .withCode(429)
              .withMessage("too many requests, please try again later")
              .withNewDetails()
              .withRetryAfterSeconds(asked)
              .endDetails()
              .build();
      ResponseEntity<ProblemDetail> r =
          new ProblemAdvice().kubernetes(new KubernetesClientException(status));
      assertThat(r.getStatusCode().value()).isEqualTo(503);
      assertThat(r.getHeaders().getFirst("Retry-After"))
          .as("asked %s", asked)
          .isEqualTo(asked == null || asked < 1 ? "1" : asked > 10 ? "10" : asked.toString());
    }
  }

  private static void assertAnswers503Within5s(int port) throws Exception {
    Config config =
        new ConfigBuilder(Config.empty()).withMasterUrl("http://127.0.0.1:" + port).build();
    try (KubernetesClient client =
        new KubernetesClientBuilder().withConfig(KubernetesConfig.bounded(config)).build()) {
      IsolatoProperties props = new IsolatoProperties(null, null, false, 0, 0, null, null, null);
      SloClasses classes = new SloClasses(client, props);
      TenantIndex index = new TenantIndex(client, props);
      MockMvc mvc =
          MockMvcBuilders.standaloneSetup(
                  new TenantController(client, props, classes, new Admissions(index)),
                  new SloClassController(client, classes))
              .setControllerAdvice(new ProblemAdvice())
              .build();
      for (RequestBuilder request :
          List.of(
              post("/api/v1/tenants").contentType(MediaType.APPLICATION_JSON).content(TENANT),
              get("/api/v1/tenants/acme"),
              get("/api/v1/slo-classes"))) {
        long start = System.nanoTime();
        MockHttpServletResponse r = mvc.perform(request).andReturn().getResponse();
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(r.getStatus()).as(r.getContentAsString()).isEqualTo(503);
        assertThat(r.getContentType()).isEqualTo("application/problem+json");
        assertThat(r.getContentAsString()).contains("unreachable");
        assertThat(r.getHeader("Retry-After")).isEqualTo("1");
        assertThat(ms).as("answered after %d ms", ms).isLessThan(5_000);
      }
      index.destroy();
    }
  }
}
