package dev.isolato.slo;

import static dev.isolato.slo.Text.fmt;
import static dev.isolato.slo.Text.trim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Finds the cut-off point RR_cutoff: the highest offered rate whose latency at the target
 * percentile, error rate and achieved rate meet the SLO, below the first <em>confirmed</em>
 * violation.
 *
 * <p>A failing step is noise only when the next two steps (by offered rate) pass again; otherwise
 * the violation is confirmed: it persists, or the step after next fails too, or too few steps
 * follow to refute it (the conservative reading near the end of a run). With one noisy step in a
 * monotone curve whose boundary is between steps c (last pass) and c+1, the cut-off is unchanged
 * unless the noise hits step c−1, c or c+1, and then it moves at most two steps down or one step
 * up: the rule errs on the safe side.
 */
public final class CutoffDetector {
  private final DetectionPolicy policy;

  public CutoffDetector(DetectionPolicy policy) {
    this.policy = policy;
  }

  public CutoffResult detect(List<RatePoint> points, double percentile, double targetLatencyMs) {
    if (points.isEmpty()) {
      throw new IllegalArgumentException("at least one step is needed to detect a cut-off");
    }
    List<RatePoint> sorted = new ArrayList<>(points);
    sorted.sort(
        Comparator.comparingDouble(RatePoint::offeredRps).thenComparingInt(RatePoint::stepIndex));
    int n = sorted.size();
    boolean[] passed = new boolean[n];
    List<List<String>> reasons = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      List<String> why = failedCriteria(sorted.get(i), percentile, targetLatencyMs);
      reasons.add(why);
      passed[i] = why.isEmpty();
    }
    int violation = -1;
    for (int i = 0; i < n && violation < 0; i++) {
      if (!passed[i] && !refuted(passed, i)) {
        violation = i;
      }
    }
    int lastPass = -1;
    for (int i = 0; i < (violation < 0 ? n : violation); i++) {
      if (passed[i]) {
        lastPass = i;
      }
    }
    List<StepVerdict> verdicts = new ArrayList<>(n);
    List<String> evidence = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String role =
          violation >= 0 && i > violation
              ? StepVerdict.BEYOND
              : i == violation
                  ? StepVerdict.VIOLATION
                  : passed[i] ? StepVerdict.PASS : StepVerdict.NOISE;
      RatePoint p = sorted.get(i);
      verdicts.add(
          new StepVerdict(
              p.stepIndex(),
              p.offeredRps(),
              p.latencyMs(),
              marginPct(p.latencyMs(), targetLatencyMs),
              p.errorRate(),
              p.achievedRatio(),
              passed[i],
              role,
              reasons.get(i)));
      if (StepVerdict.NOISE.equals(role)) {
        evidence.add(
            fmt(
                "step %d at %.1f rps ignored as noise (%s): steps %d and %d pass again",
                p.stepIndex(),
                p.offeredRps(),
                String.join(", ", reasons.get(i)),
                sorted.get(i + 1).stepIndex(),
                sorted.get(i + 2).stepIndex()));
      }
    }
    String target = fmt("p%s <= %.1f ms", trim(percentile), targetLatencyMs);
    if (lastPass < 0) {
      RatePoint v = sorted.get(violation);
      evidence.add(
          0,
          fmt(
              "no cut-off: the lowest confirmed violation is step %d at %.1f rps (%s) with no passing step below it",
              v.stepIndex(), v.offeredRps(), String.join(", ", reasons.get(violation))));
      return new CutoffResult(
          CutoffResult.NONE,
          null,
          null,
          v.stepIndex(),
          percentile,
          targetLatencyMs,
          verdicts,
          evidence);
    }
    RatePoint cut = sorted.get(lastPass);
    evidence.add(
        0,
        fmt(
            "cut-off %.1f rps at step %d: %s held with p%s = %.1f ms (%+.1f%%)",
            cut.offeredRps(),
            cut.stepIndex(),
            target,
            trim(percentile),
            cut.latencyMs(),
            marginPct(cut.latencyMs(), targetLatencyMs)));
    if (violation < 0) {
      evidence.add(
          1,
          fmt(
              "not reached: no step violated the SLO up to %.1f rps; the cut-off is a lower bound",
              sorted.get(n - 1).offeredRps()));
      return new CutoffResult(
          CutoffResult.NOT_REACHED,
          cut.offeredRps(),
          cut.stepIndex(),
          null,
          percentile,
          targetLatencyMs,
          verdicts,
          evidence);
    }
    RatePoint v = sorted.get(violation);
    int confirming =
        violation + 1 < n && !passed[violation + 1]
            ? violation + 1
            : violation + 2 < n ? violation + 2 : -1;
    String confirmation =
        confirming < 0
            ? "too few steps follow to refute it"
            : fmt(
                "confirmed by step %d at %.1f rps (%s)",
                sorted.get(confirming).stepIndex(),
                sorted.get(confirming).offeredRps(),
                String.join(", ", reasons.get(confirming)));
    evidence.add(
        1,
        fmt(
            "violation from step %d at %.1f rps (%s); %s",
            v.stepIndex(),
            v.offeredRps(),
            String.join(", ", reasons.get(violation)),
            confirmation));
    return new CutoffResult(
        CutoffResult.FOUND,
        cut.offeredRps(),
        cut.stepIndex(),
        v.stepIndex(),
        percentile,
        targetLatencyMs,
        verdicts,
        evidence);
  }

  /** A failing step is refuted when the next two steps both pass. */
  private static boolean refuted(boolean[] passed, int i) {
    return i + 2 < passed.length && passed[i + 1] && passed[i + 2];
  }

  private List<String> failedCriteria(RatePoint p, double percentile, double targetLatencyMs) {
    List<String> why = new ArrayList<>(3);
    if (p.latencyMs() > targetLatencyMs) {
      why.add(
          fmt(
              "p%s %.1f ms > %.1f ms by %.1f%%",
              trim(percentile),
              p.latencyMs(),
              targetLatencyMs,
              marginPct(p.latencyMs(), targetLatencyMs)));
    }
    if (p.errorRate() > policy.maxErrorRate()) {
      why.add(fmt("error rate %.2f%% > %.2f%%", 100 * p.errorRate(), 100 * policy.maxErrorRate()));
    }
    if (p.achievedRatio() < policy.minAchievedRatio()) {
      why.add(
          fmt(
              "achieved %.1f of %.1f rps (%.1f%% < %.1f%%)",
              p.achievedRps(),
              p.offeredRps(),
              100 * p.achievedRatio(),
              100 * policy.minAchievedRatio()));
    }
    return why;
  }

  /**
   * (latency − target) / target × 100, saturated at the largest finite double: a latency of ~1e306
   * × the target (valid in a run: finite) must still be a number in the JSON answer.
   */
  static double marginPct(double latencyMs, double targetMs) {
    double margin = (latencyMs - targetMs) / targetMs * 100;
    return Double.isInfinite(margin) ? Math.copySign(Double.MAX_VALUE, margin) : margin;
  }
}
