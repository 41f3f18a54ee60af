package dev.isolato.capacity;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Holds one pool's live windows against its class's model, window after window: whether its SLO
 * holds (k of n, with hysteresis), and the effective cut-off — lowered on sustained evidence that
 * the pods deliver less than planned (over target at a rate below cut-off × pivot), raised back by
 * calm probes. Not thread-safe: one verification loop feeds it. Its state is only a cache of live
 * evidence (the SLO verdict is rebuilt within {@code ofWindows} windows after a restart), except
 * the live limit, which a new verifier resumes from the class's status.
 */
public final class PoolVerifier {
  private final VerificationPolicy policy;
  private final LiveCapacityEstimator estimator;

  /**
   * Last n active windows: over target (the pool's latency), and over target with a pod failing
   * below the plan's rate.
   */
  private final Deque<boolean[]> recent = new ArrayDeque<>();

  /** Per-pod points of the last active windows, for the live estimate. */
  private final Deque<LiveWindow> history = new ArrayDeque<>();

  private boolean held = true;
  private Instant since;
  private int calmRun;
  private int probeRun;
  private Double lowered;
  private Instant driftSince;
  private String calibrationId;
  private LiveWindow last;
  private LiveEstimate live;

  public PoolVerifier(VerificationPolicy policy) {
    this.policy = policy;
    this.estimator = new LiveCapacityEstimator(policy);
  }

  /**
   * A verifier that resumes a live limit found before (by a previous leader, or before the pool's
   * series went missing for a while): the limit holds until calm probes or a new calibration lift
   * it, not merely because this process forgot it.
   */
  public PoolVerifier(
      VerificationPolicy policy, double loweredPerPodRps, Instant driftSince, ClassModel model) {
    this(policy);
    this.lowered = loweredPerPodRps;
    this.driftSince = driftSince;
    this.calibrationId = model.calibrationId();
  }

  /** Takes one window into account. */
  public Verdict observe(LiveWindow w, ClassModel model) {
    List<Verdict.Change> changes = new ArrayList<>();
    if (calibrationId != null && !calibrationId.equals(model.calibrationId())) {
      // a new calibration is the best evidence there is: the live limit starts afresh
      if (lowered != null) {
        changes.add(Verdict.Change.CLEARED);
      }
      lowered = null;
      driftSince = null;
      history.clear();
      recent.clear();
    }
    calibrationId = model.calibrationId();
    if (lowered != null && lowered >= model.calibratedPerPodRps()) {
      lowered = null;
      driftSince = null;
    }
    if (w.active()) {
      take(w, model, changes);
    }
    return verdict(model, changes);
  }

  private void take(LiveWindow w, ClassModel model, List<Verdict.Change> changes) {
    last = w;
    // an unsteady window's average is no point of the curve: the SLO verdict takes it whole
    // (tenants saw its latency), the live estimate and the drift test only a failure at its peak
    List<LiveWindow> points = w.steady() ? w.perPod() : w.unsteadyPoints(model.targetMs());
    points.forEach(history::addLast);
    while (history.size() > policy.historyWindows()) {
      history.removeFirst();
    }
    boolean over = w.latencyMs() > model.targetMs();
    // drift: a pod failed the target at a rate below what the plan holds it at
    double planRate = model.planRate(effective(model));
    boolean belowPlan =
        points.stream().anyMatch(p -> p.latencyMs() > model.targetMs() && p.perPodRps() < planRate);
    recent.addLast(new boolean[] {over, over && belowPlan});
    while (recent.size() > policy.ofWindows()) {
      recent.removeFirst();
    }
    live =
        estimator.estimate(List.copyOf(history), model.percentile(), model.targetMs()).orElse(null);
    if (since == null) {
      since = w.at();
    }
    if (held) {
      if (count(0) >= policy.overWindows()) {
        held = false;
        since = w.at();
        calmRun = 0;
        changes.add(Verdict.Change.SLO_LOST);
      }
    } else {
      calmRun = over ? 0 : calmRun + 1;
      if (calmRun >= policy.heldWindows()) {
        held = true;
        since = w.at();
        changes.add(Verdict.Change.SLO_RESTORED);
      }
    }
    if (count(1) >= policy.overWindows() && live != null && live.bounded()) {
      double to = Math.min(effective(model), live.perPodRps());
      if (to < effective(model)) {
        lowered = to;
        if (driftSince == null) {
          driftSince = w.at();
        }
        changes.add(Verdict.Change.LOWERED);
      }
      // fresh evidence is needed at the new level before it drops again
      recent.clear();
      probeRun = 0;
      return;
    }
    probe(w, model, changes);
  }

  /** Recovery: calm windows raise a lowered cut-off halfway back, then clear it. */
  private void probe(LiveWindow w, ClassModel model, List<Verdict.Change> changes) {
    if (lowered == null) {
      return;
    }
    probeRun = w.latencyMs() <= model.targetMs() * policy.probeMargin() ? probeRun + 1 : 0;
    if (probeRun < policy.probeWindows()) {
      return;
    }
    probeRun = 0;
    double calibrated = model.calibratedPerPodRps();
    double raised = lowered + (calibrated - lowered) / 2;
    if (raised >= calibrated * 0.95) {
      lowered = null;
      driftSince = null;
      changes.add(Verdict.Change.CLEARED);
    } else {
      lowered = raised;
      changes.add(Verdict.Change.RAISED);
    }
  }

  private int count(int column) {
    return (int) recent.stream().filter(r -> r[column]).count();
  }

  private double effective(ClassModel model) {
    return lowered == null ? model.calibratedPerPodRps() : lowered;
  }

  private Verdict verdict(ClassModel model, List<Verdict.Change> changes) {
    return new Verdict(held, since, last, live, effective(model), driftSince, changes);
  }
}
