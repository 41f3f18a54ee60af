package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.isolato.DocClaim;
import dev.isolato.client.ApiClient;
import dev.isolato.client.ApiException;
import dev.isolato.client.ApiResponse;
import dev.isolato.client.api.SloClassesApi;
import dev.isolato.client.api.TenantsApi;
import dev.isolato.client.model.LatencyTarget;
import dev.isolato.client.model.PodResources;
import dev.isolato.client.model.Problem;
import dev.isolato.client.model.Profile;
import dev.isolato.client.model.SloClassBody;
import dev.isolato.client.model.SloClassSpec;
import dev.isolato.client.model.TenantRequest;
import dev.isolato.client.model.TenantResponse;
import java.time.Duration;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The API through a client nobody here wrote: OpenAPI Generator's Java client (module api-client),
 * generated from docs/reference/openapi.json, which ApiContractIT keeps equal to /v3/api-docs.
 * Bodies in and out are the generated types; errors are the generated {@link Problem}.
 */
class GeneratedClientIT extends ItBase {
  private static final String CLASS = "gen";
  private static final String TENANT = "gen-1";

  private ApiClient client() {
    ApiClient c = new ApiClient();
    c.updateBaseUri("http://127.0.0.1:" + port);
    c.setRequestInterceptor(b -> b.header("Authorization", "Bearer " + TOKEN));
    c.setReadTimeout(Duration.ofSeconds(20));
    return c;
  }

  private static TenantRequest tenant(double committedRps) {
    return new TenantRequest()
        .tenantId(TENANT)
        .sloClass(CLASS)
        .committedRps(committedRps)
        .profile(new Profile().cpu(2).memory(16).io(0));
  }

  /** The problem+json body of a refused call, as the generated type. */
  private Problem refused(ApiClient c, ThrowingCallable call, int status) throws Exception {
    ApiException e = catchThrowableOfType(ApiException.class, call);
    assertThat(e).as("refused with %d", status).isNotNull();
    assertThat(e.getCode()).isEqualTo(status);
    assertThat(e.getResponseHeaders().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    Problem p = c.getObjectMapper().readValue(e.getResponseBody(), Problem.class);
    assertThat(p.getStatus()).isEqualTo(status);
    return p;
  }

  record Update(ApiResponse<TenantResponse> read, String etag, TenantResponse updated) {}

  /**
   * A read, then a PUT with its ETag, as a client does; null when the reconciler wrote the tenant's
   * status in between (412), so that the caller reads again.
   */
  private static Update readAndUpdate(TenantsApi tenants, double committedRps) throws ApiException {
    ApiResponse<TenantResponse> read = tenants.getTenantWithHttpInfo(TENANT);
    String etag = read.getHeaders().get("ETag").get(0);
    try {
      return new Update(read, etag, tenants.updateTenant(TENANT, tenant(committedRps), etag));
    } catch (ApiException e) {
      if (e.getCode() == 412) {
        return null;
      }
      throw e;
    }
  }

  @Test
  @Order(900)
  @DocClaim("docs/api.md: onboard, read, list, update, offboard and refused requests")
  void onboardReadListUpdateOffboardThroughTheGeneratedClient() throws Exception {
    ApiClient c = client();
    TenantsApi tenants = new TenantsApi(c);
    SloClassesApi classes = new SloClassesApi(c);
    SloClassBody created =
        classes.createSloClass(
            new SloClassBody()
                .name(CLASS)
                .spec(
                    new SloClassSpec()
                        .latency(new LatencyTarget().percentile(95.0).targetMs(50.0))
                        .resources(new PodResources().cpu("250m").memory("64Mi"))
                        .minReplicas(1)
                        .maxReplicas(2)
                        .perPodCutoffRps(50.0)));
    assertThat(created.getName()).isEqualTo(CLASS);
    assertThat(created.getResourceVersion()).isNotBlank();

    ApiResponse<TenantResponse> onboarded = tenants.onboardTenantWithHttpInfo(tenant(5));
    assertThat(onboarded.getStatusCode()).isEqualTo(201);
    assertThat(onboarded.getData().getTenantId()).isEqualTo(TENANT);
    assertThat(onboarded.getData().getCommittedRps()).isEqualTo(5.0);

    assertThat(tenants.listTenants(100, null).getItems())
        .extracting(TenantResponse::getTenantId)
        .contains(TENANT);

    Update update =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> readAndUpdate(tenants, 8), u -> u != null);
    TenantResponse read = update.read().getData();
    assertThat(read.getSloClass()).isEqualTo(CLASS);
    assertThat(read.getProfile().getCpu()).isEqualTo(2);
    assertThat(update.etag()).isEqualTo("\"" + read.getResourceVersion() + "\"");
    assertThat(update.updated().getCommittedRps()).isEqualTo(8.0);
    assertThat(update.updated().getResourceVersion()).isNotEqualTo(read.getResourceVersion());
    assertThat(
            refused(c, () -> tenants.updateTenant(TENANT, tenant(9), update.etag()), 412)
                .getDetail())
        .contains(TENANT);

    Problem invalid = refused(c, () -> tenants.onboardTenant(tenant(-1).tenantId("gen-2")), 400);
    assertThat(invalid.getErrors()).extracting("field").containsExactly("committedRps");
    Problem unknown =
        refused(c, () -> tenants.onboardTenant(tenant(5).tenantId("gen-3").sloClass("nope")), 422);
    assertThat(unknown.getDetail()).contains("nope");

    assertThat(tenants.offboardTenantWithHttpInfo(TENANT).getStatusCode()).isEqualTo(202);
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> refused(c, () -> tenants.getTenant(TENANT), 404));
    assertThat(classes.deleteSloClassWithHttpInfo(CLASS).getStatusCode()).isEqualTo(202);
  }
}
