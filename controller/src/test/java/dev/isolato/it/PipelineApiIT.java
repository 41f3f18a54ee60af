package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.isolato.DocClaim;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/v1/pipeline/analyses} on a real kube-apiserver: shapes are validated (RFC 9457, each
 * field named), only provider admins may start or read analyses, one runs at a time (409), and a
 * started one is listed and readable. There is no controller manager or kubelet here, so the
 * analysis's pods never become Ready: it stays RUNNING (the loop itself is tested on localkube,
 * controller/test/tune-e2e.sh). A Ready node object lets it get that far.
 */
class PipelineApiIT extends ItBase {
  static final String PATH = "/api/v1/pipeline/analyses";
  static final String NODE = "pipeline-it-node";

  @AfterAll
  static void removeNode() {
    kube.nodes().withName(NODE).delete();
  }

  @Test
  @Order(1)
  void badShapesAreRefusedNamingEachField() throws Exception {
    Reply zero =
        api(
            "POST",
            PATH,
            "{\"workloads\":0,\"podsPerWorkload\":1000,\"maxChanges\":9,\"repeats\":0}");
    assertThat(zero.status()).isEqualTo(400);
    assertThat(zero.raw().headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    assertThat(zero.body().get("errors").findValuesAsText("field"))
        .containsExactlyInAnyOrder("workloads", "podsPerWorkload", "maxChanges", "repeats");
    Reply many = api("POST", PATH, "{\"workloads\":1,\"podsPerWorkload\":1,\"repeats\":6}");
    assertThat(many.status()).isEqualTo(400);
    assertThat(many.body().get("errors").findValuesAsText("message"))
        .containsExactly("must be between 1 and 5, was 6");
    Reply product = api("POST", PATH, "{\"workloads\":10,\"podsPerWorkload\":100}");
    assertThat(product.status()).isEqualTo(400);
    assertThat(product.body().get("detail").asText())
        .contains("10 × 100 = 1000")
        .contains("at most 200");
    Reply missing = api("POST", PATH, "{}");
    assertThat(missing.status()).isEqualTo(400);
    assertThat(missing.body().get("errors").findValuesAsText("field"))
        .containsExactlyInAnyOrder("workloads", "podsPerWorkload");
    assertThat(api("POST", PATH, "{\"workloads\":\"many\",\"podsPerWorkload\":1}").status())
        .isEqualTo(400);
  }

  @Test
  @Order(2)
  void tenantsAndAnonymousCallersGetNothing() throws Exception {
    String shape = "{\"workloads\":1,\"podsPerWorkload\":1}";
    int before = api("GET", PATH, null).body().size();
    assertThat(as(TENANT_TOKEN, "POST", PATH, shape).status()).isEqualTo(403);
    assertThat(as(TENANT_TOKEN, "GET", PATH, null).status()).isEqualTo(403);
    assertThat(call("POST", PATH, shape).status()).isEqualTo(401);
    assertThat(api("GET", PATH, null).body().size()).as("nothing was started").isEqualTo(before);
  }

  @Test
  @Order(3)
  @DocClaim("docs/api.md: 202 + `Location`: the analysis runs in the background")
  @DocClaim("docs/api.md: 409 with `running` while another runs")
  @DocClaim("docs/api.md: 200: the last 20, newest first")
  @DocClaim("docs/api.md: what was applied; 404 when unknown")
  void oneAnalysisRunsAtATimeAndIsListed() throws Exception {
    Node node =
        kube.nodes()
            .resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata().build())
            .create();
    node.setStatus(
        new io.fabric8.kubernetes.api.model.NodeStatusBuilder()
            .addToCapacity("cpu", new Quantity("2"))
            .addNewCondition()
            .withType("Ready")
            .withStatus("True")
            .endCondition()
            .build());
    kube.nodes().resource(node).updateStatus();

    Reply started = api("POST", PATH, "{\"workloads\":1,\"podsPerWorkload\":2}");
    assertThat(started.status()).isEqualTo(202);
    String id = started.body().get("id").asText();
    assertThat(started.raw().headers().firstValue("Location")).contains(PATH + "/" + id);
    assertThat(started.body().get("status").asText()).isEqualTo("RUNNING");

    Reply busy = api("POST", PATH, "{\"workloads\":2,\"podsPerWorkload\":3}");
    assertThat(busy.status()).isEqualTo(409);
    assertThat(busy.body().get("running").asText()).isEqualTo(id);
    assertThat(busy.body().get("detail").asText())
        .contains("retry when its status is DONE or FAILED");

    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> {
              Reply one = api("GET", PATH + "/" + id, null);
              assertThat(one.status()).isEqualTo(200);
              assertThat(one.body().get("status").asText()).isEqualTo("RUNNING");
              assertThat(one.body().get("hardware").get("nodes").asInt()).isPositive();
            });
    assertThat(api("GET", PATH, null).body().findValuesAsText("id")).first().isEqualTo(id);
    assertThat(kube.namespaces().withName("isolato-pipeline-" + id + "-1-single-1").get())
        .as("the benchmark runs in a namespace of its own")
        .isNotNull();
    Reply unknown = api("GET", PATH + "/nosuch", null);
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.raw().headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
  }
}
