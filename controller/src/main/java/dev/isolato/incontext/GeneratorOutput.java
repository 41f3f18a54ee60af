package dev.isolato.incontext;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.calibration.CalibrationRun;
import dev.isolato.calibration.CalibrationStep;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the in-cluster generator (the open-loop referee, {@code -out -}) printed: one line {@value
 * #PREFIX} followed by the calibration run JSON, with its own measurements under {@code generator}.
 * Its log also holds its progress lines (stderr), so the run is found by its prefix.
 *
 * @param run the calibration run (docs/calibration-format.md)
 * @param generator the generator's own CPU, the node's CPU busy and model; null when absent
 */
public record GeneratorOutput(CalibrationRun run, Generator generator) {
  public static final String PREFIX = "ISOLATO-RUN ";

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /**
   * The generator's own measurements over the whole run.
   *
   * @param cpuPct its process CPU time / wall time, % of one CPU
   * @param nodeBusyPct the node's CPU busy (/proc/stat), % of all CPUs
   * @param cpuModel /proc/cpuinfo "model name"
   * @param cpuMhz /proc/cpuinfo "cpu MHz", mean over cores
   * @param node the node it ran on (downward API)
   */
  public record Generator(
      Double cpuPct,
      Double cpuSeconds,
      Double wallSeconds,
      Double nodeBusyPct,
      String cpuModel,
      Double cpuMhz,
      String node) {

    /** Over two passes; either may be absent (null). */
    static Generator over(Generator a, Generator b) {
      if (a == null || b == null) {
        return a == null ? b : a;
      }
      Double cpu = sum(a.cpuSeconds(), b.cpuSeconds());
      Double wall = sum(a.wallSeconds(), b.wallSeconds());
      Double cpuPct =
          cpu != null && wall != null && wall > 0 ? 100 * cpu / wall : max(a.cpuPct(), b.cpuPct());
      Double busy =
          a.nodeBusyPct() != null
                  && b.nodeBusyPct() != null
                  && a.wallSeconds() != null
                  && b.wallSeconds() != null
                  && wall > 0
              ? (a.nodeBusyPct() * a.wallSeconds() + b.nodeBusyPct() * b.wallSeconds()) / wall
              : max(a.nodeBusyPct(), b.nodeBusyPct());
      return new Generator(cpuPct, cpu, wall, busy, a.cpuModel(), a.cpuMhz(), a.node());
    }

    private static Double sum(Double x, Double y) {
      return x == null || y == null ? null : x + y;
    }

    private static Double max(Double x, Double y) {
      return x == null ? y : y == null ? x : Math.max(x, y);
    }
  }

  /** The last run line of a log; empty when there is none. */
  public static Optional<GeneratorOutput> parse(String log) {
    if (log == null) {
      return Optional.empty();
    }
    List<String> lines = log.lines().toList();
    for (int i = lines.size() - 1; i >= 0; i--) {
      String line = lines.get(i);
      int at = line.indexOf(PREFIX);
      if (at >= 0) {
        try {
          JsonNode node = JSON.readTree(line.substring(at + PREFIX.length()));
          CalibrationRun run = JSON.treeToValue(node, CalibrationRun.class);
          Generator g =
              node.hasNonNull("generator")
                  ? JSON.treeToValue(node.get("generator"), Generator.class)
                  : null;
          return Optional.of(new GeneratorOutput(run, g));
        } catch (IOException | IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "the generator's run line is not a calibration run: " + e.getMessage(), e);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * This run followed by a later pass's steps (whose indexes continue this run's), as the one run
   * that is stored; the generator's figures over both passes (CPU seconds and wall time summed, the
   * node's busy weighted by each pass's wall time).
   */
  public GeneratorOutput with(GeneratorOutput later) {
    List<CalibrationStep> steps = new ArrayList<>(run.steps());
    steps.addAll(later.run().steps());
    CalibrationRun merged =
        new CalibrationRun(
            run.schemaVersion(),
            run.runId(),
            run.sloClass(),
            run.partial() || later.run().partial(),
            run.context(),
            steps);
    return new GeneratorOutput(merged, Generator.over(generator, later.generator()));
  }

  /** Mean achieved rate over the steps (req/s): what the generator really sent and got back. */
  public double meanAchievedRps() {
    return run.steps().stream().mapToDouble(CalibrationStep::achievedRps).average().orElse(0);
  }

  /**
   * Why the run measured nothing, when every request failed (a mix the service does not serve, a
   * tenant the gate does not know): a cut-off from it would be the speed of the service's errors.
   *
   * @param log the generator's log, whose failure lines name the causes
   */
  public Optional<String> nothingServed(String log) {
    long count = run.steps().stream().mapToLong(st -> st.total().count()).sum();
    long errors = run.steps().stream().mapToLong(st -> st.total().errors()).sum();
    if (count > 0 && errors < count) {
      return Optional.empty();
    }
    List<String> causes =
        log == null
            ? List.of()
            : log.lines()
                .filter(l -> l.contains(FAILURE_MARK))
                .map(
                    l -> l.substring(Math.max(0, l.lastIndexOf(": ", l.indexOf(FAILURE_MARK)) + 2)))
                .limit(3)
                .toList();
    return Optional.of(
        "every request failed ("
            + errors
            + " of "
            + count
            + "), so the run measures no capacity"
            + (causes.isEmpty() ? "" : ": " + String.join("; ", causes))
            + ". The calibration replays the class's spec.requestMix to one pod: check that its"
            + " endpoints are ones the service answers with 2xx");
  }

  /** What the referee's failure report lines hold ({@code <n> failed (first at <t>): <cause>}). */
  static final String FAILURE_MARK = " failed (first at ";
}
