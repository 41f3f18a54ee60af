package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.calibration.CalibrationContext;
import dev.isolato.calibration.CalibrationRun;
import dev.isolato.slo.CalibrationOutcome;
import dev.isolato.slo.CapacityPlan;
import dev.isolato.slo.ClassTarget;
import dev.isolato.slo.ModelCapacityPlanner;
import dev.isolato.slo.ModelFit;
import dev.isolato.slo.SloEngine;
import dev.isolato.slo.SyntheticRuns;
import dev.isolato.slo.TenantDemand;
import dev.isolato.slo.UslModel;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CalibrationStatusMapperTest {
  static final SloEngine ENGINE = SloEngine.withDefaults();

  /** 10 ms at 1 rps, a per-replica cut-off of 60 rps for 50 ms, replicas contend (σ = 0.2). */
  static final UslModel TRUTH = SyntheticRuns.modelWithCutoff(10, 5, 60, 0.7, 0.2);

  static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

  static CalibrationRun run(String id, String context, int replicas) {
    double cutoff = 60 * TRUTH.effectiveReplicas(replicas);
    CalibrationRun r =
        SyntheticRuns.run(
            "gold",
            TRUTH,
            replicas,
            SyntheticRuns.rates(0.1 * cutoff, 1.4 * cutoff, 14),
            0.01,
            new Random(replicas));
    return new CalibrationRun(
        1,
        id,
        "gold",
        false,
        new CalibrationContext(context, "500m", "128Mi", replicas, List.of(), Map.of()),
        r.steps());
  }

  static SloClass gold() {
    SloClass c = Fixtures.sloClass("gold", 1, 4, 100);
    c.getSpec().latency.percentile = 95;
    c.getSpec().latency.targetMs = 50;
    return c;
  }

  /** What POST /api/v1/calibrations does with a run, minus the API server. */
  static SloClassStatus ingest(SloClass cls, CalibrationRun run, Instant at) {
    ClassTarget target = CalibrationStatusMapper.target(cls);
    CalibrationOutcome outcome = ENGINE.ingest(run, target);
    var fitRuns = CalibrationStatusMapper.runsForFit(cls.getStatus(), run);
    ModelFit fit =
        fitRuns.size() == 1
            ? outcome.fit()
            : ENGINE.fit(
                fitRuns.stream().map(CalibrationStatusMapper.StoredRunRef::run).toList(), target);
    SloClassStatus next =
        CalibrationStatusMapper.record(cls.getStatus(), run, outcome, fit, fitRuns, at);
    cls.setStatus(next);
    return next;
  }

  static CalibrationRun runAt(String id, String podCpu, double perReplicaCutoff) {
    UslModel truth = SyntheticRuns.modelWithCutoff(10, 5, perReplicaCutoff, 0.7, 0.2);
    CalibrationRun r =
        SyntheticRuns.run(
            "gold",
            truth,
            1,
            SyntheticRuns.rates(0.1 * perReplicaCutoff, 1.4 * perReplicaCutoff, 14),
            0.01,
            new Random(7));
    return new CalibrationRun(
        1,
        id,
        "gold",
        false,
        new CalibrationContext("alone", podCpu, "128Mi", 1, List.of(), Map.of()),
        r.steps());
  }

  @Test
  void cutoffsAreRecordedPerPodSizeAndTheClassOffersEachCandidateItsNewest() {
    SloClass cls = gold(); // declares 500m
    cls.getSpec().resources.cpuCandidates = List.of("250m", "1");
    assertThat(CalibrationStatusMapper.sizing(cls).candidates())
        .extracting(c -> c.perPodCutoffRps())
        .containsOnlyNulls();

    ingest(cls, runAt("small", "250m", 20), NOW);
    ingest(cls, runAt("big", "1000m", 130), NOW.plusSeconds(1));
    SloClassStatus s = ingest(cls, runAt("mid", "0.5", 60), NOW.plusSeconds(2));

    assertThat(s.cutoffs).extracting(p -> p.podCpuMillis).containsExactly(250L, 1000L, 500L);
    assertThat(s.calibrationRuns)
        .extracting(r -> r.podCpuMillis)
        .containsExactly(250L, 1000L, 500L);
    assertThat(s.fit.runIds)
        .as("runs of other sizes are not fitted together")
        .containsExactly("mid");
    assertThat(s.fit.podCpuMillis).isEqualTo(500L);
    var sizing = CalibrationStatusMapper.sizing(cls);
    assertThat(sizing.declaredCpuMillis()).isEqualTo(500);
    assertThat(sizing.fitCpuMillis()).isEqualTo(500L);
    assertThat(sizing.candidates())
        .extracting(c -> c.cpuMillis())
        .containsExactly(250L, 500L, 1000L);
    assertThat(sizing.candidates().get(0).perPodCutoffRps()).isEqualTo(s.cutoffs.get(0).rps);
    assertThat(sizing.candidates().get(2).perPodCutoffRps()).isEqualTo(s.cutoffs.get(1).rps);
    assertThat(ClassPlans.request(cls, List.of(new TenantDemand("a", 10))).sizing())
        .isEqualTo(sizing);
    cls.getSpec().resources.cpuCandidates = null;
    assertThat(CalibrationStatusMapper.sizing(cls)).as("no candidates: no choice").isNull();
  }

  @Test
  void aCutoffWithoutARecordedSizeCountsAsTheDeclaredSizes() {
    SloClass cls = gold();
    SloClassStatus s = ingest(cls, runAt("old", null, 60), NOW);
    cls.getSpec().resources.cpuCandidates = List.of("250m");

    assertThat(s.cutoffs.get(0).podCpuMillis).isNull();
    assertThat(CalibrationStatusMapper.sizing(cls).candidates().get(1).perPodCutoffRps())
        .isEqualTo(s.cutoffs.get(0).rps);
  }

  @Test
  void cpuQuantitiesAreMillicores() {
    assertThat(CalibrationStatusMapper.cpuMillis("250m")).isEqualTo(250);
    assertThat(CalibrationStatusMapper.cpuMillis("1.5")).isEqualTo(1500);
    assertThat(CalibrationStatusMapper.cpuMillis("0.0005"))
        .as("rounded up, as the API server does")
        .isEqualTo(1);
    assertThat(CalibrationStatusMapper.cpuMillis(null)).isNull();
    // found by FuzzIT: a pattern-valid quantity beyond a long of millicores was a 500
    assertThatThrownBy(() -> CalibrationStatusMapper.cpuMillis("918716020247188742873010044250Mi"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> CalibrationStatusMapper.cpuMillis("0"))
        .hasMessageContaining("positive CPU quantity");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> CalibrationStatusMapper.cpuMillis("lots"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRunStoresItsCutoffModelAndPerPodCutoff() {
    SloClass cls = gold();
    SloClassStatus s = ingest(cls, run("r1", "alone", 1), NOW);
    assertThat(s.cutoffs)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.pods).isEqualTo(1);
              assertThat(p.context).isEqualTo("alone");
              assertThat(p.rps).isCloseTo(60, within(60 * 0.15));
              assertThat(p.status).isEqualTo("found");
              assertThat(p.runId).isEqualTo("r1");
              assertThat(p.measuredAt).isEqualTo("2026-11-22T10:00:00Z");
            });
    assertThat(s.perPodCutoffRps).isEqualTo(s.cutoffs.get(0).rps);
    assertThat(s.fit.status).isEqualTo("trusted");
    assertThat(s.fit.sigmaFitted).isFalse();
    assertThat(s.fit.runIds).containsExactly("r1");
    assertThat(s.model.scaleMs).isPositive();
    assertThat(s.calibrationRuns).singleElement().satisfies(r -> assertThat(r.steps).hasSize(14));
    assertThat(s.lastRunId).isEqualTo("r1");
  }

  @Test
  void aRunStoredInTheFlatLayoutOfBeforeIsDroppedNotRefitted() {
    SloClass cls = gold();
    cls.setStatus(
        new io.fabric8.kubernetes.client.utils.KubernetesSerialization()
            .unmarshal(
                """
        {"calibrationRuns": [{"runId": "old", "context": "alone", "replicas": 2, "storedAt": "2026-11-01T00:00:00Z",
          "steps": [{"index": 0, "offeredRps": 10, "achievedRps": 10, "durationSeconds": 10,
                     "count": 100, "errors": 0, "p50": 1, "p90": 2, "p95": 3, "p99": 4, "max": 5}]}]}
        """,
                SloClassStatus.class));

    SloClassStatus s = ingest(cls, run("r1", "alone", 1), NOW);

    assertThat(s.fit.runIds).containsExactly("r1");
    assertThat(s.calibrationRuns).extracting(r -> r.runId).containsExactly("r1");
  }

  @Test
  void runsAtOneAndTwoReplicasGiveAJointFitThatPredictsThree() {
    SloClass cls = gold();
    ingest(cls, run("r1", "alone", 1), NOW);
    ingest(cls, run("other", "noisy", 1), NOW.plusSeconds(1));
    SloClassStatus s = ingest(cls, run("r2", "alone", 2), NOW.plusSeconds(2));

    assertThat(s.fit.context).isEqualTo("alone");
    assertThat(s.fit.runIds).as("same context only, by replicas").containsExactly("r1", "r2");
    assertThat(s.fit.replicaCounts).containsExactly(1, 2);
    assertThat(s.fit.sigmaFitted).isTrue();
    assertThat(s.model.sigma).isCloseTo(0.2, within(0.05));
    assertThat(s.perPodCutoffRps).as("newest single-pod cut-off").isEqualTo(s.cutoffs.get(1).rps);

    ModelFit stored = CalibrationStatusMapper.modelFit(s);
    assertThat(stored.trusted()).isTrue();
    double truth3 = TRUTH.cutoffRps(50, 3);
    assertThat(stored.model().cutoffRps(50, 3))
        .as("predicted 3-replica cut-off")
        .isCloseTo(truth3, within(truth3 * 0.05));
  }

  @Test
  void theReconcilersRequestCarriesTheStoredFitAndTheModelPlansWithIt() {
    SloClass cls = gold();
    ingest(cls, run("r1", "alone", 1), NOW);
    ingest(cls, run("r2", "alone", 2), NOW);
    var request =
        ClassPlans.request(cls, List.of(new TenantDemand("a", 60), new TenantDemand("b", 40)));
    assertThat(request.perPodCutoffRps()).isEqualTo(cls.getStatus().perPodCutoffRps);
    CapacityPlan plan = ENGINE.planner().plan(request);
    assertThat(plan.method()).isEqualTo(ModelCapacityPlanner.METHOD);
    // 110 rps planned: 2 replicas carry ~100 rps at σ = 0.2, so the model needs 3 (linear would say
    // 2)
    assertThat(plan.replicas()).isEqualTo(3);
    assertThat(ClassPlans.toStatus(plan, request).committedRps).isEqualTo(100);
  }

  @Test
  void withoutAStoredFitTheDeclaredCutoffAndTheFlaggedFallbackAreUsed() {
    SloClass cls = gold();
    var request = ClassPlans.request(cls, List.of(new TenantDemand("a", 150)));
    assertThat(request.fit()).isNull();
    assertThat(request.perPodCutoffRps()).isEqualTo(100);
    CapacityPlan plan = ENGINE.planner().plan(request);
    assertThat(plan.method()).isEqualTo(ModelCapacityPlanner.FALLBACK_METHOD);
    assertThat(plan.replicas()).isEqualTo(2);
    assertThat(plan.explanation().get(0)).startsWith("fallback to the linear baseline");
  }

  @Test
  void aCorruptStoredModelIsRefusedNotThrown() {
    SloClassStatus s = new SloClassStatus();
    s.fit = new SloClassStatus.Fit();
    s.fit.status = "trusted";
    s.fit.percentile = 95;
    s.model = new SloClassStatus.Model();
    s.model.scaleMs = -1;
    ModelFit fit = CalibrationStatusMapper.modelFit(s);
    assertThat(fit.trusted()).isFalse();
    assertThat(fit.reasons()).singleElement().asString().contains("stored model is invalid");
    assertThat(CalibrationStatusMapper.modelFit(new SloClassStatus())).isNull();
  }

  @Test
  void cutoffsAreBoundedPerContextAndInContexts() {
    List<SloClassStatus.CutoffPoint> list = List.of();
    for (int i = 0; i < 25; i++) {
      list = CalibrationStatusMapper.withCutoff(list, point("alone", i));
    }
    assertThat(list).hasSize(CalibrationStatusMapper.MAX_CUTOFFS_PER_CONTEXT);
    assertThat(list.get(0).rps).as("oldest dropped").isEqualTo(5);
    for (int c = 0; c < 12; c++) {
      list = CalibrationStatusMapper.withCutoff(list, point("ctx" + c, 100 + c));
    }
    assertThat(list.stream().map(p -> p.context).distinct())
        .hasSize(CalibrationStatusMapper.MAX_CONTEXTS)
        .doesNotContain("alone", "ctx0", "ctx1");
    assertThat(CalibrationStatusMapper.withCutoff(list, null)).hasSameSizeAs(list);
  }

  @Test
  void storedRunsReplaceTheirContextAndReplicasAndAreBounded() {
    List<SloClassStatus.StoredRun> runs = List.of();
    for (int i = 0; i < 12; i++) {
      runs =
          CalibrationStatusMapper.withRun(
              runs, CalibrationStatusMapper.toStored(run("r" + i, "ctx" + i, 1), "t"));
    }
    assertThat(runs).hasSize(CalibrationStatusMapper.MAX_STORED_RUNS);
    assertThat(runs.get(0).runId).isEqualTo("r2");
    runs =
        CalibrationStatusMapper.withRun(
            runs, CalibrationStatusMapper.toStored(run("again", "ctx5", 1), "t"));
    assertThat(runs)
        .hasSize(CalibrationStatusMapper.MAX_STORED_RUNS)
        .noneMatch(r -> r.runId.equals("r5"));
    assertThat(runs.get(runs.size() - 1).runId).isEqualTo("again");
  }

  @Test
  void aStoredRunRoundTripsToTheSameTotals() {
    CalibrationRun original = run("r1", "alone", 2);
    CalibrationRun back =
        CalibrationStatusMapper.toRun(CalibrationStatusMapper.toStored(original, "t"), "gold");
    assertThat(back.context().replicas()).isEqualTo(2);
    assertThat(back.context().label()).isEqualTo("alone");
    for (int i = 0; i < original.steps().size(); i++) {
      assertThat(back.steps().get(i).total()).isEqualTo(original.steps().get(i).total());
      assertThat(back.steps().get(i).offeredRps()).isEqualTo(original.steps().get(i).offeredRps());
    }
  }

  @Test
  void theMergePatchIsGuardedAndDeletesAnAbsentModelButWritesNoOtherNulls() throws Exception {
    SloClassStatus s = new SloClassStatus();
    s.cutoffs = List.of(point("alone", 40));
    s.fit = new SloClassStatus.Fit();
    s.fit.status = "refused";
    JsonNode patch = new ObjectMapper().readTree(CalibrationStatusMapper.mergePatch(s, "42"));
    assertThat(patch.at("/metadata/resourceVersion").asText()).isEqualTo("42");
    assertThat(patch.at("/status").has("model")).isTrue();
    assertThat(patch.at("/status/model").isNull()).isTrue();
    assertThat(patch.at("/status/cutoffs/0").has("perPodRps")).isFalse();
    assertThat(patch.at("/status").has("plan")).as("the reconciler's field").isFalse();
    assertThat(patch.at("/status").has("conditions")).isFalse();
  }

  @Test
  void onlyANewCalibrationOrASpecChangeTriggersAReconcile() {
    SloClass a = gold();
    SloClass b = gold();
    b.setStatus(new SloClassStatus());
    b.getStatus().plan = new SloClassStatus.Plan();
    assertThat(SloClassReconciler.worthReconciling(b, a))
        .as("the reconciler's own status write")
        .isFalse();
    SloClass c = gold();
    c.setStatus(new SloClassStatus());
    c.getStatus().calibratedAt = "2026-11-22T10:00:00Z";
    c.getStatus().lastRunId = "r1";
    assertThat(SloClassReconciler.worthReconciling(c, b)).isTrue();
    SloClass d = gold();
    d.getMetadata().setGeneration(2L);
    assertThat(SloClassReconciler.worthReconciling(d, a)).isTrue();
  }

  static SloClassStatus.CutoffPoint point(String context, double rps) {
    SloClassStatus.CutoffPoint p = new SloClassStatus.CutoffPoint();
    p.context = context;
    p.pods = 1;
    p.rps = rps;
    return p;
  }
}
