package dev.isolato.verification;

import dev.isolato.capacity.ClassModel;
import dev.isolato.capacity.ClassVerdict;
import dev.isolato.capacity.LiveEstimate;
import dev.isolato.capacity.Verdict;
import dev.isolato.tenancy.CalibrationStatusMapper;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassStatus;
import java.time.Instant;

/** Pure: a class verdict as {@code status.capacity}. */
final class CapacityStatus {
  private CapacityStatus() {}

  static SloClassStatus.Capacity of(
      SloClass cls, ClassModel model, ClassVerdict verdict, Instant now) {
    Verdict v = verdict.pool();
    SloClassStatus.Capacity c = new SloClassStatus.Capacity();
    c.calibratedPerPodRps = model.calibratedPerPodRps();
    c.calibratedSource =
        CalibrationStatusMapper.perPodCutoffMeasured(cls) ? "measured" : "declared";
    c.effectivePerPodRps = round(v.effectivePerPodRps());
    c.driftSince = v.driftSince() == null ? null : v.driftSince().toString();
    c.targetMs = model.targetMs();
    if (v.last() != null) {
      c.sloHeld = v.sloHeld();
      c.sloHeldSince = v.since() == null ? null : v.since().toString();
      c.measuredLatencyMs = round(v.last().latencyMs());
      c.perPodRps = round(v.last().perPodRps());
      c.pods = v.last().pods();
    }
    LiveEstimate e = v.live();
    if (e != null) {
      SloClassStatus.Live l = new SloClassStatus.Live();
      l.perPodRps = round(e.perPodRps());
      l.errorRps = round(e.errorRps());
      l.basis = e.basis();
      l.windows = e.windows();
      l.lowestFailingRps = e.lowestFailingRps() == null ? null : round(e.lowestFailingRps());
      c.live = l;
    }
    verdict
        .stability()
        .ifPresent(
            s -> {
              c.liveDeviationPct = round(s.deviationPct());
              c.contextStable = !s.unstable() && !s.ioUnsafe();
              c.stabilityNotes = s.reasons();
            });
    c.verifiedAt = now.toString();
    return c;
  }

  /** One decimal: the status shows measurements, not noise digits. */
  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
