package dev.isolato.gatling.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.isolato.calibration.CalibrationContext;
import dev.isolato.calibration.CalibrationRun;
import dev.isolato.calibration.CalibrationStep;
import dev.isolato.calibration.LatencySummary;
import dev.isolato.gatling.plan.ClassPlan;
import dev.isolato.gatling.plan.ClassStep;
import dev.isolato.gatling.plan.TenantLoad;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/** Builds and writes the calibration JSON of one class from what the recorder measured. */
public final class CalibrationReport {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private CalibrationReport() {}

  /**
   * The run as measured so far. Only complete steps are included (the SLO engine must never see a
   * step cut short); the run is partial when any planned step is missing.
   *
   * @param stepComplete whether every planned request of a step finished
   */
  public static CalibrationRun build(
      String runId, ClassPlan plan, StepRecorder recorder, IntPredicate stepComplete) {
    List<CalibrationStep> steps = new ArrayList<>();
    for (ClassStep step : plan.steps()) {
      if (stepComplete.test(step.index()) && recorder.hasData(plan.sloClass(), step.index())) {
        steps.add(stepResult(plan.sloClass(), step, recorder));
      }
    }
    boolean partial = steps.size() < plan.steps().size();
    return new CalibrationRun(
        CalibrationRun.SCHEMA_VERSION,
        runId,
        plan.sloClass(),
        partial,
        JSON.convertValue(plan.context(), CalibrationContext.class),
        steps);
  }

  /**
   * Achieved rate = 2xx answers / the step's span, where the span is the planned duration or, if
   * longer, first send to last answer: a backlog that drains after the step shows up as a lower
   * achieved rate instead of being hidden.
   */
  static CalibrationStep stepResult(String sloClass, ClassStep step, StepRecorder recorder) {
    Map<String, LatencySummary> tenants = new LinkedHashMap<>();
    List<Samples.Snapshot> snapshots = new ArrayList<>();
    for (TenantLoad load : step.tenants()) {
      Samples.Snapshot snap = recorder.snapshot(sloClass, step.index(), load.tenantId());
      if (snap != null) {
        snapshots.add(snap);
        tenants.put(load.tenantId(), snap.summary());
      }
    }
    Samples.Snapshot all = merge(snapshots);
    double spanSeconds =
        Math.max(step.durationSeconds(), (all.lastEndMillis() - all.firstStartMillis()) / 1000.0);
    return new CalibrationStep(
        step.index(),
        round(step.offeredRps(), 3),
        round(all.okCount() / spanSeconds, 3),
        round(step.durationSeconds(), 3),
        all.summary(),
        tenants);
  }

  /** Writes the run atomically (temp file + move), so a reader never sees half a file. */
  public static void write(CalibrationRun run, Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, ".calibration", ".json.tmp");
    try {
      JSON.writeValue(tmp.toFile(), run);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Reads a run back (used by tests and tools that post or plot runs). */
  public static CalibrationRun read(Path file) throws IOException {
    return JSON.readValue(file.toFile(), CalibrationRun.class);
  }

  private static Samples.Snapshot merge(List<Samples.Snapshot> parts) {
    int n = parts.stream().mapToInt(p -> p.latenciesNanos().length).sum();
    long[] latencies = new long[n];
    int at = 0;
    long errors = 0;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (Samples.Snapshot p : parts) {
      System.arraycopy(p.latenciesNanos(), 0, latencies, at, p.latenciesNanos().length);
      at += p.latenciesNanos().length;
      errors += p.errors();
      first = Math.min(first, p.firstStartMillis());
      last = Math.max(last, p.lastEndMillis());
    }
    return new Samples.Snapshot(latencies, errors, first, last);
  }

  private static double round(double value, int decimals) {
    double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }
}
