package dev.isolato.gatling.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.calibration.TenantOrder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PlanExportTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Settings settings(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return new Settings(m);
  }

  /** One small valid parameter set per simulation (those of gatling/test/simulations-local.sh). */
  static List<Object[]> simulations() {
    return List.of(
        new Object[] {
          "LinearRampCalibration",
          settings(
              "baseUrl",
              "http://a:1",
              "sloClass",
              "gold",
              "tenants",
              "t1,t2",
              "tenantShares",
              "1,3",
              "startRate",
              "20",
              "steps",
              "3",
              "requestsPerStep",
              "61")
        },
        new Object[] {
          "AggressiveTenant",
          settings(
              "baseUrl",
              "http://a:1",
              "sloClass",
              "bronze",
              "tenants",
              "t1,t2,t3",
              "committedRps",
              "10",
              "aggressiveTenant",
              "t3",
              "factors",
              "1,3",
              "requestsPerStep",
              "50",
              "warmup",
              "false")
        },
        new Object[] {
          "TenantMix",
          settings(
              "goldBaseUrl",
              "http://g:1",
              "bronzeBaseUrl",
              "http://b:1",
              "mix",
              "1:2",
              "startRate",
              "5",
              "steps",
              "2",
              "requestsPerStep",
              "30",
              "gold.context",
              "replicas=2")
        },
        new Object[] {
          "CoLocatedRamp",
          settings(
              "classes",
              "ca,cb",
              "ca.baseUrl",
              "http://a:1",
              "cb.baseUrl",
              "http://b:1",
              "ca.tenantCount",
              "2",
              "ca.startRate",
              "10",
              "cb.startRate",
              "5",
              "steps",
              "2",
              "stepSeconds",
              "2",
              "warmupSeconds",
              "1",
              "cb.context",
              "replicas=2")
        });
  }

  @ParameterizedTest
  @MethodSource("simulations")
  void everyClassStepAndTenantRoundTrips(String simulation, Settings s) throws Exception {
    List<ClassPlan> plans = LoadPlans.of(simulation, s);
    JsonNode out = JSON.readTree(PlanExport.export(simulation, s));
    assertEquals(simulation, out.get("simulation").asText());
    double warmup = LoadPlans.warmupSeconds(s);
    assertEquals(warmup, out.get("warmupSeconds").asDouble());
    assertEquals(plans.size(), out.get("classes").size());
    for (int c = 0; c < plans.size(); c++) {
      ClassPlan plan = plans.get(c);
      JsonNode node = out.get("classes").get(c);
      assertEquals(plan.sloClass(), node.get("sloClass").asText());
      assertEquals(plan.baseUrl(), node.get("baseUrl").asText());
      assertEquals(
          PlanExport.recorded(plan.context()),
          JSON.convertValue(node.get("context"), Map.class),
          "context as the simulation records it");
      assertEquals(plan.warmupRequests(warmup), node.get("warmupRequests").asLong());
      assertEquals(plan.steps().size(), node.get("steps").size());
      for (ClassStep step : plan.steps()) {
        JsonNode n = node.get("steps").get(step.index());
        assertEquals(step.index(), n.get("index").asInt());
        assertEquals(step.offsetSeconds(), n.get("offsetSeconds").asDouble());
        assertEquals(step.durationSeconds(), n.get("durationSeconds").asDouble());
        assertEquals(step.offeredRps(), n.get("offeredRps").asDouble());
        long[] counts = new long[step.tenants().size()];
        for (int t = 0; t < counts.length; t++) {
          JsonNode tenant = n.get("tenants").get(t);
          assertEquals(step.tenants().get(t).tenantId(), tenant.get("tenantId").asText());
          assertEquals(step.tenants().get(t).rps(), tenant.get("rps").asDouble());
          counts[t] = tenant.get("count").asLong();
        }
        assertArrayEquals(step.counts(), counts, "the counts the simulation sends");
        assertArrayEquals(
            TenantOrder.interleave(step.counts()),
            JSON.convertValue(n.get("order"), int[].class),
            "the order the simulation sends in");
      }
    }
  }

  @Test
  void exportsWhatTheSimulationSendsIncludingItsWarmup() throws Exception {
    JsonNode out =
        JSON.readTree(
            PlanExport.export("LinearRampCalibration", (Settings) simulations().get(0)[1]));
    JsonNode gold = out.get("classes").get(0);
    assertEquals(5.0, out.get("warmupSeconds").asDouble(), "the simulations' default warm-up");
    assertEquals(100, gold.get("warmupRequests").asLong(), "20 req/s for 5 s");
    JsonNode step0 = gold.get("steps").get(0);
    assertEquals(15, step0.get("tenants").get(0).get("count").asLong(), "61 * 1/4, rounded");
    assertEquals(46, step0.get("tenants").get(1).get("count").asLong(), "61 * 3/4, rounded");
    assertEquals(0, gold.get("context").get("replicas").asInt(), "written even when not given");
  }

  @Test
  void aBadPropertyFailsAsItFailsTheSimulation() {
    Settings bad = settings("baseUrl", "http://a:1", "sloClass", "gold", "startRate", "-3");
    String simulation =
        assertThrows(IllegalArgumentException.class, () -> LoadPlans.linearRamp(bad)).getMessage();
    String export =
        assertThrows(
                IllegalArgumentException.class,
                () -> PlanExport.export("LinearRampCalibration", bad))
            .getMessage();
    assertEquals(simulation, export);
    assertEquals("isolato.startRate must be > 0: '-3'", export);
  }

  @Test
  void anUnknownSimulationIsNamedWithTheKnownOnes() {
    var e =
        assertThrows(IllegalArgumentException.class, () -> PlanExport.export("Ramp", settings()));
    assertEquals(
        "unknown simulation 'Ramp': LinearRampCalibration, AggressiveTenant, TenantMix or"
            + " CoLocatedRamp",
        e.getMessage());
  }

  /** The requests block of a one-step ramp's plan, with {@code extra} settings. */
  private static JsonNode requestsOf(String... extra) throws Exception {
    List<String> kv =
        new java.util.ArrayList<>(
            List.of("baseUrl", "http://a:1", "sloClass", "c", "tenants", "t1", "startRate", "20"));
    kv.addAll(List.of(extra));
    return JSON.readTree(
            PlanExport.export("LinearRampCalibration", settings(kv.toArray(String[]::new))))
        .get("requests");
  }

  @Test
  void exportsTheRequestMixTheSimulationSends() throws Exception {
    JsonNode r = requestsOf("requests", "GET:/get*2,POST:/anything", "tenantHeader", "X-Tenant");
    assertEquals("X-Tenant", r.get("tenantHeader").asText());
    assertEquals("/anything", r.get("endpoints").get(1).get("path").asText());
    assertEquals(2, r.get("endpoints").get(0).get("weight").asInt());
    assertEquals("[0,1,0]", r.get("cycle").toString());
    assertEquals(
        "/v1/tenants/{tenant}/requests", requestsOf().get("endpoints").get(0).get("path").asText());
  }

  @Test
  void aBadMixNamesTheProperty() {
    assertEquals(
        "isolato.requests: 'GET /get' is not METHOD:/path or METHOD:/path*weight (e.g. GET:/get*3)",
        assertThrows(IllegalArgumentException.class, () -> requestsOf("requests", "GET /get"))
            .getMessage());
  }
}
