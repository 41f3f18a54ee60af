package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.isolato.profiler.TenantProfilerLoop;
import dev.isolato.profiler.TenantRates;
import dev.isolato.slo.TenantProfiler;
import dev.isolato.tenancy.Tenant;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 12 items 5 and 7 on a real kube-apiserver: a class runs the pod size its calibrations make
 * cheapest, and the tenant profiler's status writes, Events and the planning of passive tenants
 * (the rates come from a fixed {@link TenantRates}: Prometheus is the one part not run here).
 */
class ProfilerIT extends ItBase {

  static String runJson(String runId, String cls, String podCpu, double perPodCutoff)
      throws Exception {
    return runJson(runId, cls, "alone", podCpu, Map.of(), perPodCutoff);
  }

  /** The pool pod's CPU (app + gate sidecar, as the class sized it), e.g. "250m". */
  String podCpu(String cls) {
    var d = kube.apps().deployments().inNamespace("isolato-c-" + cls).withName("saas-bench").get();
    if (d == null) {
      return null;
    }
    BigDecimal cores =
        d.getSpec().getTemplate().getSpec().getContainers().stream()
            .map(c -> Quantity.getAmountInBytes(c.getResources().getLimits().get("cpu")))
            .reduce(BigDecimal.ZERO, BigDecimal::add);
    return cores.movePointRight(3).longValue() + "m";
  }

  @Test
  void aClassRunsThePodSizeItsCalibrationsMakeCheapest() throws Exception {
    String body =
        classJson("sized", 4, 100, false)
            .replace("\"cpu\":\"250m\"", "\"cpu\":\"250m\",\"cpuCandidates\":[\"100m\"]");
    assertThat(api("POST", "/api/v1/slo-classes", body).status()).isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("sz-1", "sized", 30, "shared")).status())
        .isEqualTo(201);
    await().atMost(Duration.ofSeconds(30)).until(() -> "250m".equals(podCpu("sized")));

    // a 250m pod holds 60 rps, a 100m pod 30: for 33 rps (10% headroom) two 100m pods reserve less
    // CPU than one 250m pod
    assertThat(api("POST", "/api/v1/calibrations", runJson("big", "sized", "250m", 60)).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/calibrations", runJson("small", "sized", "0.1", 30)).status())
        .isEqualTo(201);

    await().atMost(Duration.ofSeconds(30)).until(() -> "100m".equals(podCpu("sized")));
    // the class status is written after the pool's objects
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              JsonNode plan =
                  api("GET", "/api/v1/slo-classes/sized", null).body().at("/status/plan");
              assertThat(plan.get("podCpu").asText()).isEqualTo("100m");
              assertThat(plan.at("/explanation/0").asText())
                  .startsWith("pod size: 100m (declared 250m)");
            });
    JsonNode cutoffs = api("GET", "/api/v1/slo-classes/sized", null).body().at("/status/cutoffs");
    assertThat(cutoffs.findValues("podCpuMillis"))
        .extracting(JsonNode::asLong)
        .containsExactly(250L, 100L);
    // the quota admits the largest candidate's pods
    assertThat(
            Quantity.getAmountInBytes(
                kube.resourceQuotas()
                    .inNamespace("isolato-c-sized")
                    .withName("isolato-pool")
                    .get()
                    .getSpec()
                    .getHard()
                    .get("limits.cpu")))
        .isEqualByComparingTo("1.25");

    Reply bad = api("POST", "/api/v1/calibrations", runJson("bad", "sized", "lots", 30));
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.body().toString()).contains("context.podCpu").contains("positive CPU quantity");
  }

  @Test
  void
      theProfilerMarksTenantsWithoutTouchingTheReconcilersStatusAndPassiveOnesShrinkAnOptedInClass()
          throws Exception {
    String body =
        classJson("prof", 4, 10, false)
            .replace(
                "\"admission\":\"enforce\"",
                "\"admission\":\"enforce\",\"passiveTenants\":\"measured\"");
    assertThat(api("POST", "/api/v1/slo-classes", body).status()).as(body).isEqualTo(201);
    for (String id : List.of("pf-quiet", "pf-loud")) {
      assertThat(api("POST", "/api/v1/tenants", tenantJson(id, "prof", 20, "shared")).status())
          .isEqualTo(201);
    }
    // 40 rps committed on 10 rps per pod
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                api("GET", "/api/v1/slo-classes/prof", null)
                        .body()
                        .at("/status/plan/replicas")
                        .asInt()
                    == 4);
    // no pod starts here, so the tenants are never served: give them an hour of service by hand
    for (String id : List.of("pf-quiet", "pf-loud")) {
      kube.resources(Tenant.class)
          .inNamespace(NS)
          .withName(id)
          .subresource("status")
          .patch(
              new PatchContext.Builder()
                  .withPatchType(PatchType.SERVER_SIDE_APPLY)
                  .withFieldManager("it")
                  .withForce(true)
                  .build(),
              "{\"apiVersion\":\"isolato.dev/v1alpha1\",\"kind\":\"Tenant\",\"metadata\":{\"name\":\""
                  + id
                  + "\"},"
                  + "\"status\":{\"servingSince\":\""
                  + Instant.now().minusSeconds(3600)
                  + "\"}}");
    }
    TenantRates rates = window -> new TenantRates.Rates(Map.of("pf-loud", 30.0), Set.of("prof"));
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    TenantProfilerLoop loop =
        new TenantProfilerLoop(
            kube,
            rates,
            new TenantProfiler.Policy(1.1, 0.25, 600),
            Duration.ofSeconds(30),
            NS,
            meters);

    loop.pass(Instant.now());

    Tenant quiet = kube.resources(Tenant.class).inNamespace(NS).withName("pf-quiet").get();
    assertThat(quiet.getStatus().profile.behaviour).isEqualTo("passive");
    assertThat(quiet.getStatus().profile.offeredRps).isEqualTo(0.0);
    assertThat(quiet.getStatus().conditions).as("the reconciler's fields stay").isNotEmpty();
    assertThat(quiet.getStatus().phase).isNotNull();
    assertThat(
            kube.resources(Tenant.class)
                .inNamespace(NS)
                .withName("pf-loud")
                .get()
                .getStatus()
                .profile
                .behaviour)
        .isEqualTo("aggressive");
    List<Event> events =
        kube.v1().events().inNamespace(NS).list().getItems().stream()
            .filter(e -> e.getInvolvedObject().getName().startsWith("pf-"))
            .toList();
    assertThat(events)
        .extracting(Event::getReason)
        .containsExactlyInAnyOrder("TenantPassive", "TenantAggressive");
    assertThat(events)
        .filteredOn(e -> e.getReason().equals("TenantAggressive"))
        .singleElement()
        .satisfies(e -> assertThat(e.getType()).isEqualTo("Warning"));
    assertThat(
            meters
                .get("isolato.tenant.profiles")
                .tags("class", "prof", "behaviour", "passive")
                .gauge()
                .value())
        .isEqualTo(1);

    // pf-quiet is counted at 0 rps: ⌈20 / 10⌉ = 2 pods
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              JsonNode plan =
                  api("GET", "/api/v1/slo-classes/prof", null).body().at("/status/plan");
              assertThat(plan.get("replicas").asInt()).isEqualTo(2);
              assertThat(plan.toString())
                  .contains("1 passive counted at their measured rate: sized for 20.0 rps");
            });

    // a second pass with the same rates writes nothing and records no new Event
    loop.pass(Instant.now());
    assertThat(
            kube.resources(Tenant.class)
                .inNamespace(NS)
                .withName("pf-quiet")
                .get()
                .getStatus()
                .profile
                .behaviour)
        .isEqualTo("passive");
    assertThat(
            kube.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> e.getInvolvedObject().getName().startsWith("pf-")))
        .hasSize(2);

    // a window in which the class was not scraped: the rate is unknown, and the status says so
    // (a null offeredRps was once refused by the schema, leaving the old verdict in place)
    new TenantProfilerLoop(
            kube,
            window -> new TenantRates.Rates(Map.of(), Set.of()),
            new TenantProfiler.Policy(1.1, 0.25, 600),
            Duration.ofSeconds(30),
            NS,
            meters)
        .pass(Instant.now());
    var unknown =
        kube.resources(Tenant.class).inNamespace(NS).withName("pf-loud").get().getStatus().profile;
    assertThat(unknown.behaviour).isEqualTo("unknown");
    assertThat(unknown.offeredRps).isNull();
  }

  /**
   * The tenants' hand-written servingSince differs from what the reconciler computes: leave nothing
   * for other ITs' write counts.
   */
  @AfterEach
  void offboard() throws Exception {
    for (String id : List.of("sz-1", "pf-quiet", "pf-loud")) {
      api("DELETE", "/api/v1/tenants/" + id, null);
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                kube.resources(Tenant.class).inNamespace(NS).list().getItems().stream()
                    .noneMatch(
                        t ->
                            List.of("sz-1", "pf-quiet", "pf-loud")
                                .contains(t.getMetadata().getName())));
    for (String cls : List.of("sized", "prof")) {
      api("DELETE", "/api/v1/slo-classes/" + cls, null);
    }
  }
}
