package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.isolato.DocClaim;
import dev.isolato.capacity.LiveWindow;
import dev.isolato.capacity.VerificationPolicy;
import dev.isolato.tenancy.SloClass;
import dev.isolato.verification.PoolWindows;
import dev.isolato.verification.VerificationLoop;
import io.fabric8.kubernetes.api.model.Event;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Issue 34 items 2–3 on a real kube-apiserver: the verification loop's status write, the class
 * reconciler's re-plan on the lowered cut-off (replicas up to the maximum), the SloHeld and
 * CapacityShort conditions, the 422 stating the live capacity, and the Events. The windows come
 * from a fixed {@link PoolWindows}: Prometheus is the one part not run here (the localkube e2e,
 * controller/test/capacity-e2e.sh, runs it).
 */
class CapacityIT extends ItBase {

  @Test
  @DocClaim("docs/api.md: and the 422 says so")
  void sustainedFailureBelowThePlanLowersTheCutoffScalesOutAndRefusesNewCommitments()
      throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson("lowcap", 4, 100, false)).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("dr-1", "lowcap", 100, "shared")).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("dr-2", "lowcap", 50, "shared")).status())
        .isEqualTo(201);
    await().atMost(Duration.ofSeconds(30)).until(() -> replicas("lowcap") == 2);

    // the pods deliver 50 req/s each at p95 500 ms: far below 100 × pivot 0.6
    AtomicReference<Double> p95 = new AtomicReference<>(500.0);
    PoolWindows windows =
        (window, percentiles, now) ->
            Map.of(
                new PoolWindows.Pool("lowcap", "isolato-c-lowcap"),
                Map.of(95.0, new LiveWindow(now, 2, 50, p95.get())));
    VerificationLoop loop = loop(windows);
    Instant t = Instant.now();
    loop.pass(classes(), t);
    loop.pass(classes(), t.plusSeconds(5));
    assertThat(cls("lowcap").getStatus().capacity.sloHeld)
        .as("two windows are no evidence")
        .isTrue();
    loop.pass(classes(), t.plusSeconds(10));

    SloClass c = cls("lowcap");
    assertThat(c.getStatus().capacity.sloHeld).isFalse();
    assertThat(c.getStatus().capacity.effectivePerPodRps).as("0.7 × 50 delivered").isEqualTo(35.0);
    assertThat(c.getStatus().capacity.live.basis).isEqualTo("saturation");
    assertThat(c.getStatus().capacity.contextStable).isFalse();
    // the reconciler re-plans on the write: ⌈150 / 35⌉ = 5 → the maximum, 4
    await().atMost(Duration.ofSeconds(30)).until(() -> replicas("lowcap") == 4);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              JsonNode conditions =
                  api("GET", "/api/v1/slo-classes/lowcap", null).body().at("/status/conditions");
              assertThat(condition(conditions, "SloHeld").get("status").asText())
                  .isEqualTo("False");
              assertThat(condition(conditions, "SloHeld").get("message").asText())
                  .startsWith("p95 500.0 ms vs target 50.0 ms at 50.0 req/s per pod on 2 pods");
              assertThat(condition(conditions, "CapacityShort").get("status").asText())
                  .isEqualTo("True");
              assertThat(condition(conditions, "CapacityShort").get("message").asText())
                  .contains("= 140.0 req/s by 10.0 req/s");
              assertThat(condition(conditions, "Ready").get("status").asText()).isEqualTo("True");
            });
    // existing tenants keep their admitted rates; a new commitment is refused, saying why
    assertThat(api("GET", "/api/v1/tenants/dr-1", null).body().at("/status/admittedRps").asDouble())
        .isEqualTo(100);
    Reply refused = api("POST", "/api/v1/tenants", tenantJson("dr-3", "lowcap", 5, "shared"));
    assertThat(refused.status()).isEqualTo(422);
    assertThat(refused.raw().headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    assertThat(refused.body().get("detail").asText())
        .contains("capacity 140.0 = 4 pods × 35.0 req/s per pod, live; live capacity measured")
        .contains("calibrated 100.0 req/s per pod");
    assertThat(refused.body().get("liveCapacityRps").asDouble()).isEqualTo(140);

    List<Event> events =
        kube.v1().events().inNamespace("default").list().getItems().stream()
            .filter(e -> "lowcap".equals(e.getInvolvedObject().getName()))
            .toList();
    assertThat(events).extracting(Event::getReason).contains("SloNotHeld", "CapacityLowered");

    // six calm windows hold the SLO again (the cut-off stays lowered until calm probes raise it)
    p95.set(20.0);
    for (int i = 3; i < 9; i++) {
      loop.pass(classes(), t.plusSeconds(5L * i));
    }
    assertThat(cls("lowcap").getStatus().capacity.sloHeld).isTrue();
    assertThat(cls("lowcap").getStatus().capacity.effectivePerPodRps).isEqualTo(35.0);

    // a new leader's loop resumes the limit from the status, not from nothing
    VerificationLoop next = loop(windows);
    next.pass(classes(), t.plusSeconds(60));
    assertThat(cls("lowcap").getStatus().capacity.effectivePerPodRps).isEqualTo(35.0);
    assertThat(replicas("lowcap")).isEqualTo(4);
  }

  VerificationLoop loop(PoolWindows windows) {
    return new VerificationLoop(
        kube,
        windows,
        VerificationPolicy.defaults(),
        Duration.ofSeconds(5),
        Duration.ofSeconds(15),
        new SimpleMeterRegistry());
  }

  List<SloClass> classes() {
    return kube.resources(SloClass.class).list().getItems();
  }

  SloClass cls(String name) {
    return kube.resources(SloClass.class).withName(name).get();
  }

  int replicas(String name) {
    SloClass c = cls(name);
    return c.getStatus() == null || c.getStatus().plan == null ? -1 : c.getStatus().plan.replicas;
  }

  static JsonNode condition(JsonNode conditions, String type) {
    for (JsonNode c : conditions) {
      if (type.equals(c.get("type").asText())) {
        return c;
      }
    }
    throw new AssertionError("no condition " + type + " in " + conditions);
  }
}
