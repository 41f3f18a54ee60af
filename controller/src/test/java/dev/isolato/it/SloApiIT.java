package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.isolato.DocClaim;
import dev.isolato.calibration.CalibrationContext;
import dev.isolato.calibration.CalibrationRun;
import dev.isolato.slo.SyntheticRuns;
import dev.isolato.slo.UslModel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The SLO engine behind the REST API and the reconciler, on a real kube-apiserver: calibration runs
 * land in the SloClass status, the class is planned again from the fitted model, and the plan and
 * what-if endpoints explain themselves. Runs are synthesised from a known USL model (the Gatling
 * calibration issue feeds measured ones through the same endpoint).
 */
class SloApiIT extends ItBase {
  static final String CLS = "calib";

  /** 10 ms at 1 rps; one replica holds p95 <= 50 ms up to 60 rps; replicas contend (σ = 0.2). */
  static final UslModel TRUTH = SyntheticRuns.modelWithCutoff(10, 5, 60, 0.7, 0.2);

  static String runJson(String runId, String cls, int replicas) throws Exception {
    double cutoff = 60 * TRUTH.effectiveReplicas(replicas);
    CalibrationRun r =
        SyntheticRuns.run(
            cls,
            TRUTH,
            replicas,
            SyntheticRuns.rates(0.1 * cutoff, 1.4 * cutoff, 14),
            0.01,
            new Random(replicas));
    return JSON.writeValueAsString(
        new CalibrationRun(
            1,
            runId,
            cls,
            false,
            new CalibrationContext("alone", "250m", "64Mi", replicas, List.of(), Map.of(cls, 1)),
            r.steps()));
  }

  int deploymentReplicas() {
    var d = kube.apps().deployments().inNamespace("isolato-c-" + CLS).withName("saas-bench").get();
    return d == null ? -1 : d.getSpec().getReplicas();
  }

  @Test
  @Order(1)
  @DocClaim(
      "docs/api.md: | `POST /api/v1/calibrations` | 201 + `Location: /api/v1/slo-classes/{class}/calibration`")
  void aCalibrationStoresCutoffAndFitAndTheClassIsPlannedFromTheModel() throws Exception {
    assertThat(
            api("POST", "/api/v1/slo-classes", ControllerIT.classJson(CLS, 4, 100, false)).status())
        .isEqualTo(201);
    assertThat(
            api("POST", "/api/v1/tenants", ControllerIT.tenantJson("c-one", CLS, 100, "shared"))
                .status())
        .isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> deploymentReplicas() == 1); // linear: ⌈100 / 100⌉

    Reply posted = api("POST", "/api/v1/calibrations", runJson("calib-1", CLS, 1));
    assertThat(posted.status()).as(posted.body().toString()).isEqualTo(201);
    assertThat(posted.raw().headers().firstValue("Location"))
        .hasValue("/api/v1/slo-classes/calib/calibration");
    JsonNode body = posted.body();
    assertThat(body.at("/cutoff/status").asText()).isEqualTo("found");
    assertThat(body.at("/cutoff/cutoffRps").asDouble()).isCloseTo(60, within(9.0));
    assertThat(body.at("/cutoff/evidence/0").asText()).startsWith("cut-off");
    assertThat(body.at("/fit/status").asText()).isEqualTo("trusted");
    assertThat(body.at("/fit/sigmaFitted").asBoolean()).isFalse();
    assertThat(body.at("/warnings").toString()).contains("scaling across replicas is not measured");

    JsonNode status = api("GET", "/api/v1/slo-classes/" + CLS, null).body().get("status");
    assertThat(status.at("/cutoffs/0/pods").asInt()).isEqualTo(1);
    assertThat(status.at("/cutoffs/0/context").asText()).isEqualTo("alone");
    assertThat(status.at("/cutoffs/0/rps").asDouble())
        .isEqualTo(body.at("/cutoff/cutoffRps").asDouble());
    assertThat(status.at("/perPodCutoffRps").asDouble())
        .isEqualTo(body.at("/cutoff/cutoffRps").asDouble());
    assertThat(status.at("/model/scaleMs").asDouble()).isPositive();
    assertThat(status.at("/fit/status").asText()).isEqualTo("trusted");
    // 110 rps planned (10% headroom) on ~60 rps per replica: the model asks for 2 replicas
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              JsonNode plan =
                  api("GET", "/api/v1/slo-classes/" + CLS, null).body().at("/status/plan");
              assertThat(plan.get("method").asText()).isEqualTo("usl-model");
              assertThat(plan.get("replicas").asInt()).isEqualTo(2);
              assertThat(plan.get("committedRps").asDouble()).isEqualTo(100);
            });
    await().atMost(Duration.ofSeconds(30)).until(() -> deploymentReplicas() == 2);
  }

  @Test
  @Order(2)
  @DocClaim("docs/api.md: 200: what the status holds")
  void aSecondReplicaCountMeasuresScalingAndThePlanGrows() throws Exception {
    Reply posted = api("POST", "/api/v1/calibrations", runJson("calib-2", CLS, 2));
    assertThat(posted.status()).as(posted.body().toString()).isEqualTo(201);
    assertThat(posted.body().at("/fit/sigmaFitted").asBoolean()).isTrue();
    assertThat(posted.body().get("fitRuns").findValuesAsText("runId"))
        .containsExactly("calib-1", "calib-2");
    JsonNode status = api("GET", "/api/v1/slo-classes/" + CLS, null).body().get("status");
    // the synthetic ramps' 10 % steps know each cut-off too coarsely for the law from the cut-offs:
    // σ alone is fitted on every step (θ = 0)
    assertThat(status.at("/model/sigma").asDouble()).isCloseTo(0.2, within(0.05));
    assertThat(status.at("/model/theta").asDouble()).isZero();
    assertThat(status.get("cutoffs")).hasSize(2);
    assertThat(status.at("/cutoffs/1/pods").asInt()).isEqualTo(2);
    // two replicas carry ~100 rps, not 120: 110 planned needs a third
    await().atMost(Duration.ofSeconds(30)).until(() -> deploymentReplicas() == 3);

    JsonNode stored = api("GET", "/api/v1/calibrations?sloClass=" + CLS, null).body();
    assertThat(stored.get("runs").findValuesAsText("runId")).containsExactly("calib-1", "calib-2");
    assertThat(stored.get("perPodCutoffSource").asText()).isEqualTo("measured");
    assertThat(api("GET", "/api/v1/slo-classes/" + CLS + "/calibration", null).body())
        .isEqualTo(stored);
  }

  @Test
  @Order(3)
  @DocClaim("docs/api.md: 400: every invalid field by JSON path")
  @DocClaim("docs/api.md: 422 `field: sloClass` when the class does not exist")
  void badCalibrationsAreRefusedNamingTheFieldAndNothingIsStored() throws Exception {
    ObjectNode bad = (ObjectNode) JSON.readTree(runJson("calib-bad", CLS, 1));
    bad.put("schemaVersion", 2);
    ((ObjectNode) bad.at("/steps/3")).put("offeredRps", 0);
    Reply invalid = api("POST", "/api/v1/calibrations", bad);
    assertThat(invalid.status()).isEqualTo(400);
    assertThat(invalid.raw().headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    assertThat(invalid.body().get("errors").findValuesAsText("field"))
        .contains("schemaVersion", "steps[3].offeredRps");

    ObjectNode wrongType = (ObjectNode) JSON.readTree(runJson("calib-bad", CLS, 1));
    ((ObjectNode) wrongType.at("/steps/2/total")).put("p95", "slow");
    Reply typed = api("POST", "/api/v1/calibrations", wrongType);
    assertThat(typed.status()).isEqualTo(400);
    assertThat(typed.body().at("/errors/0/field").asText()).isEqualTo("steps[2].total.p95");

    // matches the quantity pattern but no long holds its millicores (found by FuzzIT: was a 500)
    ObjectNode huge = (ObjectNode) JSON.readTree(runJson("calib-bad", CLS, 1));
    ((ObjectNode) huge.at("/context")).put("podCpu", "918716020247188742873010044250.43538Mi");
    Reply overflow = api("POST", "/api/v1/calibrations", huge);
    assertThat(overflow.status()).isEqualTo(400);
    assertThat(overflow.body().at("/errors/0/field").asText()).isEqualTo("context.podCpu");

    Reply unknown = api("POST", "/api/v1/calibrations", runJson("calib-bad", "platinum", 1));
    assertThat(unknown.status()).isEqualTo(422);
    assertThat(unknown.body().get("field").asText()).isEqualTo("sloClass");
    assertThat(
            api("GET", "/api/v1/calibrations?sloClass=" + CLS, null)
                .body()
                .get("lastRunId")
                .asText())
        .isEqualTo("calib-2");
    assertThat(api("GET", "/api/v1/calibrations", null).status()).isEqualTo(400);
    assertThat(api("GET", "/api/v1/slo-classes/platinum/plan", null).status()).isEqualTo(404);
  }

  @Test
  @Order(4)
  @DocClaim("docs/api.md: 200: the shared pool's plan, computed now")
  void thePlanExplainsItselfBesideTheLinearBaseline() throws Exception {
    Reply r = api("GET", "/api/v1/slo-classes/" + CLS + "/plan", null);
    assertThat(r.status()).isEqualTo(200);
    JsonNode v = r.body();
    assertThat(v.get("pool").asText()).isEqualTo("isolato-c-calib");
    assertThat(v.get("fitStatus").asText()).isEqualTo("trusted");
    assertThat(v.at("/plan/method").asText()).isEqualTo("usl-model");
    assertThat(v.at("/plan/replicas").asInt()).isEqualTo(3);
    assertThat(v.at("/plan/admittedRps/c-one").asDouble()).isPositive();
    assertThat(v.at("/plan/explanation").toString())
        .contains("usl model of calib", "linear baseline for comparison");
    assertThat(v.at("/linearBaseline/replicas").asInt()).isEqualTo(2);
    assertThat(v.get("predictedLatencyMs").asDouble()).isLessThanOrEqualTo(50);
    // 100 rps on 2 replicas sits right at the target: no room for the 10% headroom
    assertThat(v.get("linearPredictedLatencyMs").asDouble())
        .isGreaterThan(v.get("predictedLatencyMs").asDouble());
  }

  @Test
  @Order(5)
  @DocClaim("docs/api.md: 200: a what-if plan (nothing is written)")
  @DocClaim("docs/api.md: `field: sloClass` for an unknown class")
  void whatIfSimulationsPlanATenantSetAndRejectBadInput() throws Exception {
    String body =
        """
        {"sloClass":"calib","tenants":[{"tenantId":"a","committedRps":20},{"tenantId":"b","committedRps":30}]}""";
    Reply sim = api("POST", "/api/v1/plans:simulate", body);
    assertThat(sim.status()).as(sim.body().toString()).isEqualTo(200);
    assertThat(sim.body().at("/plan/method").asText()).isEqualTo("usl-model");
    assertThat(sim.body().at("/plan/replicas").asInt()).isEqualTo(1);
    assertThat(sim.body().at("/plan/admittedRps/b").asDouble())
        .isGreaterThan(sim.body().at("/plan/admittedRps/a").asDouble());
    assertThat(sim.body().get("predictedLatencyMs").asDouble()).isLessThanOrEqualTo(50);
    assertThat(sim.body().at("/linearBaseline/method").asText()).isEqualTo("linear-baseline");

    Reply linear =
        api(
            "POST",
            "/api/v1/plans:simulate",
            """
        {"sloClass":"calib","tenants":[{"tenantId":"a","committedRps":20}],"overrides":{"useModel":false,"perPodCutoffRps":10}}""");
    assertThat(linear.body().at("/plan/method").asText()).isEqualTo("linear-fallback");
    assertThat(linear.body().at("/plan/replicas").asInt()).isEqualTo(2);
    assertThat(linear.body().get("perPodCutoffSource").asText()).isEqualTo("override");

    Reply bad =
        api(
            "POST",
            "/api/v1/plans:simulate",
            """
        {"sloClass":"calib","tenants":[{"tenantId":"a","committedRps":20},{"tenantId":"b","committedRps":-5}],
         "overrides":{"maxReplicas":0}}""");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.body().get("errors").findValuesAsText("field"))
        .containsExactlyInAnyOrder("tenants[1].committedRps", "overrides.maxReplicas");
    Reply noTenants = api("POST", "/api/v1/plans:simulate", "{\"sloClass\":\"calib\"}");
    assertThat(noTenants.status()).isEqualTo(400);
    assertThat(noTenants.body().at("/errors/0/field").asText()).isEqualTo("tenants");
    Reply unknown =
        api("POST", "/api/v1/plans:simulate", "{\"sloClass\":\"platinum\",\"tenants\":[]}");
    assertThat(unknown.status()).isEqualTo(422);
    assertThat(unknown.body().get("field").asText()).isEqualTo("sloClass");
    Reply more =
        api(
            "POST",
            "/api/v1/plans:simulate",
            """
        {"sloClass":"calib","tenants":[{"tenantId":"a","committedRps":60},{"tenantId":"b","committedRps":45}]}""");
    assertThat(more.body().at("/linearBaseline/replicas").asInt()).isEqualTo(2);
    assertThat(more.body().get("linearPredictedLatencyMs").asDouble())
        .as("linear under-sizes at 105 rps")
        .isGreaterThan(50);
    assertThat(more.body().at("/plan/replicas").asInt()).isEqualTo(3);
    assertThat(more.body().get("predictedLatencyMs").asDouble()).isLessThanOrEqualTo(50);
    assertThat(api("POST", "/api/v1/plans:other", body).status())
        .as("the colon path is matched literally")
        .isEqualTo(404);
    assertThat(call("POST", "/api/v1/plans:simulate", body).status())
        .as("authenticated like every /api/ call")
        .isEqualTo(401);

    JsonNode paths = call("GET", "/v3/api-docs", null).body().get("paths");
    assertThat(paths.has("/api/v1/plans:simulate")).isTrue();
    assertThat(paths.has("/api/v1/calibrations")).isTrue();
    assertThat(paths.has("/api/v1/slo-classes/{name}/plan")).isTrue();
  }
}
