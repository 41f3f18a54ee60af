package dev.isolato.gatling.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.calibration.CalibrationRun;
import dev.isolato.calibration.CalibrationStep;
import dev.isolato.gatling.plan.ClassPlan;
import dev.isolato.gatling.plan.ClassStep;
import dev.isolato.gatling.plan.TenantLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CalibrationReportTest {
  private static final long MS = 1_000_000;

  private static ClassPlan plan() {
    List<TenantLoad> two = List.of(new TenantLoad("t1", 5), new TenantLoad("t2", 5));
    List<TenantLoad> faster = List.of(new TenantLoad("t1", 10), new TenantLoad("t2", 10));
    return new ClassPlan(
        "gold",
        "http://127.0.0.1:1",
        Map.of("label", "alone"),
        List.of(new ClassStep(0, 0, 2, two), new ClassStep(1, 2, 1, faster)));
  }

  /** Records n requests of one tenant in a step: latencies 1..n ms, the last `errors` KO. */
  private static void record(
      StepRecorder r,
      int step,
      String tenant,
      int n,
      int errors,
      long startMillis,
      long spanMillis) {
    r.expect("gold", step, n);
    for (int i = 1; i <= n; i++) {
      long start = startMillis + (i - 1) * spanMillis / n;
      r.finished("gold", step, tenant, i * MS, i <= n - errors, start, start + i);
    }
  }

  @Test
  void totalsMergeTenantsAndAchievedRateCountsOnlySuccesses() {
    StepRecorder r = new StepRecorder();
    record(r, 0, "t1", 10, 0, 1000, 2000);
    record(r, 0, "t2", 10, 2, 1000, 2000);
    CalibrationRun run = CalibrationReport.build("run-1", plan(), r, i -> i == 0);

    assertTrue(run.partial(), "step 1 never ran, so the run is partial");
    assertEquals(1, run.steps().size());
    CalibrationStep s = run.steps().get(0);
    assertEquals(10.0, s.offeredRps());
    assertEquals(20, s.total().count());
    assertEquals(2, s.total().errors());
    assertEquals(9.0, s.achievedRps(), "18 OK over the planned 2 s");
    assertEquals(10.0, s.total().p95());
    assertEquals(List.of("t1", "t2"), new ArrayList<>(s.tenants().keySet()));
    assertEquals(2, s.tenants().get("t2").errors());
  }

  @Test
  void backlogBeyondThePlannedDurationLowersTheAchievedRate() {
    StepRecorder r = new StepRecorder();
    record(r, 1, "t1", 10, 0, 0, 4000); // planned 1 s, answers spread over 4 s
    record(r, 1, "t2", 10, 0, 0, 4000);
    CalibrationRun run = CalibrationReport.build("run-2", plan(), r, i -> true);
    CalibrationStep s = run.steps().get(0);
    assertEquals(1, s.index());
    assertTrue(s.achievedRps() < 20.0 / 3.5, "20 answers over ~3.6 s: " + s.achievedRps());
  }

  @Test
  void completeRunIsNotPartial() {
    StepRecorder r = new StepRecorder();
    record(r, 0, "t1", 5, 0, 0, 2000);
    record(r, 1, "t1", 5, 0, 2000, 1000);
    assertFalse(CalibrationReport.build("run-3", plan(), r, i -> true).partial());
  }

  @Test
  void writesExactlyTheDocumentedShape(@TempDir Path dir) throws Exception {
    StepRecorder r = new StepRecorder();
    record(r, 0, "t1", 4, 1, 0, 2000);
    CalibrationRun run = CalibrationReport.build("run-4", plan(), r, i -> i == 0);
    Path file = dir.resolve("out/gold.json");
    CalibrationReport.write(run, file);

    JsonNode json = new ObjectMapper().readTree(Files.readString(file));
    assertEquals(
        List.of("schemaVersion", "runId", "sloClass", "partial", "context", "steps"), names(json));
    assertEquals(1, json.get("schemaVersion").asInt());
    assertTrue(json.get("partial").asBoolean());
    assertEquals("alone", json.get("context").get("label").asText());
    JsonNode step = json.get("steps").get(0);
    assertEquals(
        List.of("index", "offeredRps", "achievedRps", "durationSeconds", "total", "tenants"),
        names(step));
    assertEquals(
        List.of("count", "errors", "p50", "p90", "p95", "p99", "max", "p95Low"),
        names(step.get("tenants").get("t1")),
        "4 requests bound the p95 from below only: no p95High, not null");
    assertEquals(1, step.get("total").get("errors").asInt());
    assertEquals(run, CalibrationReport.read(file));
    try (var files = Files.list(file.getParent())) {
      assertEquals(1, files.count(), "no temporary file left behind");
    }
  }

  @Test
  void recorderIsSafeUnderConcurrentWriters() throws Exception {
    StepRecorder r = new StepRecorder();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<java.util.concurrent.Future<?>> writers = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      writers.add(pool.submit(() -> record(r, 0, "t1", 2500, 0, 0, 2000)));
    }
    pool.shutdown();
    for (java.util.concurrent.Future<?> w : writers) {
      w.get(30, TimeUnit.SECONDS); // a writer's exception fails the test
    }
    CalibrationRun run = CalibrationReport.build("run-5", plan(), r, i -> i == 0);
    assertEquals(10_000, run.steps().get(0).total().count());
    assertTrue(r.complete("gold", 0));
  }

  @Test
  void stepIsCompleteOnlyWhenEveryPlannedRequestFinished() {
    StepRecorder r = new StepRecorder();
    assertFalse(r.complete("gold", 0), "nothing planned yet");
    r.expect("gold", 0, 3);
    r.finished("gold", 0, "t1", MS, true, 0, 1);
    r.finished("gold", 0, "t2", MS, false, 0, 1);
    assertFalse(r.complete("gold", 0), "2 of 3 finished");
    r.finished("gold", 0, "t1", MS, true, 1, 2);
    assertTrue(r.complete("gold", 0));
    assertFalse(r.complete("gold", 1), "another step is counted on its own");
  }

  private static List<String> names(JsonNode node) {
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names;
  }
}
