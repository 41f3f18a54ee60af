package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.Tenant;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Admission is one decision: the planner's cut-off, no overcommit under concurrency, idempotent
 * POSTs.
 */
class AdmissionIT extends ItBase {

  @Test
  @Order(1)
  void fiftyConcurrentOnboardingsAdmitExactlyWhatFits() throws Exception {
    // 2 pods × 50 req/s = 100 req/s; the 50 tenants ask for 275 req/s together.
    assertThat(api("POST", "/api/v1/slo-classes", classJson("crowd", 2, 50, false)).status())
        .isEqualTo(201);
    List<Double> asked = new ArrayList<>();
    List<Callable<Reply>> posts = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      double rps = 1 + (i % 10);
      asked.add(rps);
      String body = tenantJson("crowd-" + i, "crowd", rps, "shared");
      posts.add(() -> api("POST", "/api/v1/tenants", body));
    }
    ExecutorService pool = Executors.newFixedThreadPool(50);
    List<Future<Reply>> replies = pool.invokeAll(posts);
    pool.shutdown();

    double admitted = 0;
    List<Double> rejected = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      Reply r = replies.get(i).get();
      assertThat(r.status()).as("tenant %d: %s", i, r.body()).isIn(201, 422);
      if (r.status() == 201) {
        admitted += asked.get(i);
      } else {
        assertThat(r.body().get("title").asText()).isEqualTo("Capacity exceeded");
        rejected.add(asked.get(i));
      }
    }
    assertThat(admitted).as("admitted in total").isLessThanOrEqualTo(100);
    double free = 100 - admitted;
    assertThat(rejected)
        .as("each rejected tenant would not have fit")
        .isNotEmpty()
        .allMatch(rps -> rps > free);
    double stored =
        kube.resources(Tenant.class).inNamespace(NS).list().getItems().stream()
            .filter(t -> "crowd".equals(t.getSpec().sloClass))
            .mapToDouble(t -> t.getSpec().committedRps)
            .sum();
    assertThat(stored).as("what the API server holds").isEqualTo(admitted);
  }

  @Test
  @Order(2)
  void aCalibratedClassAdmitsAtItsMeasuredCutoff() throws Exception {
    // declared 4 × 100 = 400 req/s; measured 4 × 10 = 40 req/s
    assertThat(api("POST", "/api/v1/slo-classes", classJson("measured", 4, 100, false)).status())
        .isEqualTo(201);
    kube.resources(SloClass.class)
        .withName("measured")
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"perPodCutoffRps\":10.0}}");
    assertThat(api("POST", "/api/v1/tenants", tenantJson("m-1", "measured", 35, "shared")).status())
        .isEqualTo(201);
    Reply over = api("POST", "/api/v1/tenants", tenantJson("m-2", "measured", 6, "shared"));
    assertThat(over.status()).as(over.body().toString()).isEqualTo(422);
    assertThat(over.body().get("capacityRps").asDouble()).isEqualTo(40);
    assertThat(over.body().get("remainingRps").asDouble()).isEqualTo(5);
    assertThat(over.body().get("detail").asText()).contains("measured");
    assertThat(api("POST", "/api/v1/tenants", tenantJson("m-2", "measured", 5, "shared")).status())
        .isEqualTo(201);
  }

  @Test
  @Order(3)
  @DocClaim(
      "docs/api.md: the same body again → 200 with the stored tenant; another body for an existing `tenantId` → 409")
  void aRepeatedPostIsIdempotentAndAnotherBodyConflicts() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson("again", 2, 50, false)).status())
        .isEqualTo(201);
    Reply first = api("POST", "/api/v1/tenants", tenantJson("same", "again", 60, "shared"));
    assertThat(first.status()).isEqualTo(201);
    Reply second = api("POST", "/api/v1/tenants", tenantJson("same", "again", 60, "shared"));
    assertThat(second.status())
        .as("same body: the existing tenant, and no capacity counted twice")
        .isEqualTo(200);
    assertThat(second.body().get("tenantId").asText()).isEqualTo("same");
    assertThat(second.body().get("committedRps").asDouble()).isEqualTo(60);
    Reply other = api("POST", "/api/v1/tenants", tenantJson("same", "again", 61, "shared"));
    assertThat(other.status()).isEqualTo(409);
    assertThat(other.raw().headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    assertThat(other.body().get("detail").asText()).contains("other settings", "PUT");
  }
}
