package dev.isolato.gatling.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadPlansTest {

  private static Settings settings(String... kv) {
    Map<String, String> m = new java.util.HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return new Settings(m);
  }

  @Test
  void linearRampSplitsEachStepEvenlyAndKeepsRequestsPerStep() {
    ClassPlan plan =
        LoadPlans.linearRamp(
                settings(
                    "sloClass",
                    "gold",
                    "baseUrl",
                    "http://x:1",
                    "tenants",
                    "a,b,c,d",
                    "startRate",
                    "40",
                    "rateStep",
                    "20",
                    "steps",
                    "3"))
            .get(0);
    assertEquals(3, plan.steps().size());
    ClassStep last = plan.steps().get(2);
    assertEquals(80.0, last.offeredRps(), 1e-9);
    assertEquals(20.0, last.tenants().get(0).rps(), 1e-9);
    assertEquals(1600 / 80.0, last.durationSeconds(), 1e-9);
    assertEquals(1600 / 40.0 + 1600 / 60.0, last.offsetSeconds(), 1e-9, "steps back to back");
    assertEquals("alone", plan.context().get("label"));
  }

  @Test
  void tenantSharesSplitEachStepInProportion() {
    ClassPlan plan =
        LoadPlans.linearRamp(
                settings(
                    "sloClass",
                    "gold",
                    "baseUrl",
                    "http://x:1",
                    "tenants",
                    "a,b,c",
                    "tenantShares",
                    "10,20,20",
                    "startRate",
                    "50",
                    "steps",
                    "1"))
            .get(0);
    assertEquals(
        List.of(10.0, 20.0, 20.0),
        plan.steps().get(0).tenants().stream().map(TenantLoad::rps).toList());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LoadPlans.linearRamp(
                    settings(
                        "sloClass",
                        "gold",
                        "baseUrl",
                        "u",
                        "tenants",
                        "a,b",
                        "tenantShares",
                        "1",
                        "startRate",
                        "1")));
    assertTrue(
        e.getMessage().contains("tenantShares lists 1 shares for 2 tenants"), e.getMessage());
  }

  @Test
  void maxRateBoundsTheRampInclusively() {
    List<ClassStep> steps =
        LoadPlans.linearRamp(
                settings(
                    "sloClass",
                    "gold",
                    "baseUrl",
                    "http://x:1",
                    "startRate",
                    "10",
                    "rateStep",
                    "5",
                    "maxRate",
                    "30"))
            .get(0)
            .steps();
    assertEquals(
        List.of(10.0, 15.0, 20.0, 25.0, 30.0), steps.stream().map(ClassStep::offeredRps).toList());
    assertEquals(List.of("t1"), steps.get(0).tenants().stream().map(TenantLoad::tenantId).toList());
  }

  @Test
  void aggressiveTenantMultipliesOnlyItsOwnRate() {
    ClassPlan plan =
        LoadPlans.aggressiveTenant(
                settings(
                    "sloClass",
                    "bronze",
                    "baseUrl",
                    "http://x:1",
                    "tenants",
                    "a,b",
                    "committedRps",
                    "10",
                    "aggressiveTenant",
                    "b",
                    "factors",
                    "1,3",
                    "requestsPerStep",
                    "400"))
            .get(0);
    ClassStep second = plan.steps().get(1);
    assertEquals(10.0, second.tenants().get(0).rps());
    assertEquals(30.0, second.tenants().get(1).rps());
    assertEquals(10.0, second.durationSeconds(), 1e-9, "400 requests at 40 req/s");
    assertEquals("aggressive", plan.context().get("label"));
  }

  @Test
  void tenantMixGivesEachClassItsTenantsOnASharedClock() {
    List<ClassPlan> plans =
        LoadPlans.tenantMix(
            settings(
                "mix",
                "1:4",
                "goldBaseUrl",
                "http://g:1",
                "bronzeBaseUrl",
                "http://b:1",
                "startRate",
                "5",
                "steps",
                "2",
                "requestsPerStep",
                "250"));
    ClassPlan gold = plans.get(0);
    ClassPlan bronze = plans.get(1);
    assertEquals("gold", gold.sloClass());
    assertEquals(4, bronze.steps().get(0).tenants().size());
    assertEquals(20.0, bronze.steps().get(0).offeredRps(), 1e-9);
    assertEquals(gold.steps().get(1).offsetSeconds(), bronze.steps().get(1).offsetSeconds());
    assertEquals(10.0, gold.steps().get(0).durationSeconds(), 1e-9, "250 at 5 x 5 req/s");
    assertEquals("mix-1:4", bronze.context().get("label"));
    assertEquals(Map.of("gold", 1, "bronze", 4), bronze.context().get("tenantMix"));
    assertEquals(List.of("gold"), bronze.context().get("colocated"));
  }

  @Test
  void tenantMixTakesEachClassContextWhenGiven() {
    List<ClassPlan> plans =
        LoadPlans.tenantMix(
            settings(
                "mix",
                "3:1",
                "goldBaseUrl",
                "http://g:1",
                "bronzeBaseUrl",
                "http://b:1",
                "startRate",
                "2",
                "steps",
                "1",
                "context",
                "replicas=9",
                "gold.context",
                "replicas=3"));
    assertEquals(3, plans.get(0).context().get("replicas"));
    assertEquals(9, plans.get(1).context().get("replicas"), "bronze falls back to context");
  }

  @Test
  void tenantMixWithZeroGoldHasOnlyBronze() {
    List<ClassPlan> plans =
        LoadPlans.tenantMix(
            settings("mix", "0:2", "bronzeBaseUrl", "http://b:1", "startRate", "5", "steps", "1"));
    assertEquals(List.of("bronze"), plans.stream().map(ClassPlan::sloClass).toList());
  }

  @Test
  void colocatedRampStepsEveryClassTogetherAtItsOwnRates() {
    List<ClassPlan> plans =
        LoadPlans.colocatedRamp(
            settings(
                "classes",
                "gold,bronze",
                "steps",
                "3",
                "stepSeconds",
                "4",
                "gold.baseUrl",
                "http://g:1",
                "gold.tenantCount",
                "2",
                "gold.startRate",
                "20",
                "gold.rateStep",
                "10",
                "bronze.baseUrl",
                "http://b:1",
                "bronze.tenants",
                "b1",
                "bronze.startRate",
                "2",
                "bronze.context",
                "podCpu=100m"));
    ClassPlan gold = plans.get(0);
    ClassPlan bronze = plans.get(1);
    assertEquals(
        List.of(20.0, 30.0, 40.0), gold.steps().stream().map(ClassStep::offeredRps).toList());
    assertEquals(
        List.of(2.0, 4.0, 6.0),
        bronze.steps().stream().map(ClassStep::offeredRps).toList(),
        "rateStep defaults to start");
    assertEquals(
        List.of("gold-t1", "gold-t2"),
        gold.steps().get(2).tenants().stream().map(TenantLoad::tenantId).toList());
    assertEquals(20.0, gold.steps().get(2).tenants().get(1).rps(), 1e-9);
    for (int i = 0; i < 3; i++) {
      assertEquals(4.0 * i, gold.steps().get(i).offsetSeconds(), 1e-9);
      assertEquals(gold.steps().get(i).offsetSeconds(), bronze.steps().get(i).offsetSeconds());
      assertEquals(4.0, bronze.steps().get(i).durationSeconds(), 1e-9);
    }
    assertEquals(
        Map.of("label", "colocated", "podCpu", "100m", "colocated", List.of("gold")),
        bronze.context());
    assertEquals(List.of("bronze"), gold.context().get("colocated"));
  }

  @Test
  void colocatedRampNeedsTwoClassesEachWithItsOwnRates() {
    IllegalArgumentException one =
        assertThrows(
            IllegalArgumentException.class,
            () -> LoadPlans.colocatedRamp(settings("classes", "gold")));
    assertTrue(one.getMessage().contains("at least two"), one.getMessage());
    IllegalArgumentException rate =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LoadPlans.colocatedRamp(
                    settings(
                        "classes",
                        "gold,bronze",
                        "gold.baseUrl",
                        "u",
                        "gold.startRate",
                        "5",
                        "bronze.baseUrl",
                        "u")));
    assertTrue(
        rate.getMessage().contains("isolato.bronze.startRate is required"), rate.getMessage());
    IllegalArgumentException context =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LoadPlans.colocatedRamp(
                    settings(
                        "classes",
                        "a,b",
                        "a.baseUrl",
                        "u",
                        "a.startRate",
                        "1",
                        "a.context",
                        "oops",
                        "b.baseUrl",
                        "u",
                        "b.startRate",
                        "1")));
    assertTrue(
        context.getMessage().contains("isolato.a.context must be a JSON object"),
        context.getMessage());
  }

  @Test
  void contextJsonIsMergedBehindTheLabel() {
    ClassPlan plan =
        LoadPlans.linearRamp(
                settings(
                    "sloClass",
                    "gold",
                    "baseUrl",
                    "http://x:1",
                    "startRate",
                    "10",
                    "steps",
                    "1",
                    "label",
                    "homogeneous",
                    "context",
                    "{\"label\":\"ignored\",\"replicas\":2,\"podCpu\":\"950m\"}"))
            .get(0);
    assertEquals("homogeneous", plan.context().get("label"));
    assertEquals(2, plan.context().get("replicas"));
  }

  @Test
  void contextPairsAreMergedWithNumbersAsNumbers() {
    ClassPlan plan =
        LoadPlans.linearRamp(
                settings(
                    "sloClass",
                    "gold",
                    "baseUrl",
                    "http://x:1",
                    "startRate",
                    "10",
                    "steps",
                    "1",
                    "context",
                    "podCpu=200m, replicas=3,scale=0.5"))
            .get(0);
    assertEquals(
        Map.of("label", "alone", "podCpu", "200m", "replicas", 3, "scale", 0.5), plan.context());
  }

  @Test
  void badInputNamesTheProperty() {
    assertMessage(
        "isolato.startRate must be > 0",
        settings("sloClass", "g", "baseUrl", "u", "startRate", "-1"));
    assertMessage(
        "isolato.startRate must be a number",
        settings("sloClass", "g", "baseUrl", "u", "startRate", "fast"));
    assertMessage("isolato.sloClass is required", settings("startRate", "1"));
    assertMessage(
        "either isolato.steps or isolato.maxRate",
        settings("sloClass", "g", "baseUrl", "u", "startRate", "1", "steps", "2", "maxRate", "5"));
    assertMessage(
        "isolato.tenants has duplicates",
        settings("sloClass", "g", "baseUrl", "u", "startRate", "1", "tenants", "a,a"));
    assertMessage(
        "isolato.context must be a JSON object",
        settings("sloClass", "g", "baseUrl", "u", "startRate", "1", "context", "{1,2"));
    assertMessage(
        "'replicas' has no key=value",
        settings(
            "sloClass", "g", "baseUrl", "u", "startRate", "1", "context", "podCpu=1,replicas"));
    assertMessage(
        "isolato.steps must be a whole number",
        settings("sloClass", "g", "baseUrl", "u", "startRate", "1", "steps", "2.5"));
    IllegalArgumentException mix =
        assertThrows(
            IllegalArgumentException.class,
            () -> LoadPlans.tenantMix(settings("mix", "4-1", "startRate", "1")));
    assertTrue(mix.getMessage().contains("isolato.mix must look like 4:1"), mix.getMessage());
    IllegalArgumentException aggressive =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LoadPlans.aggressiveTenant(
                    settings(
                        "sloClass",
                        "g",
                        "baseUrl",
                        "u",
                        "committedRps",
                        "1",
                        "tenants",
                        "a,b",
                        "aggressiveTenant",
                        "z")));
    assertTrue(aggressive.getMessage().contains("'z' is not one of the tenants"));
  }

  private static void assertMessage(String expected, Settings s) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LoadPlans.linearRamp(s));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }
}
