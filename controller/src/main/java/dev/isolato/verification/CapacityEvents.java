package dev.isolato.verification;

import static java.util.Locale.ROOT;

import dev.isolato.capacity.ClassModel;
import dev.isolato.capacity.Verdict;

/** Pure: the Event a change of verdict records on its class. */
final class CapacityEvents {
  private CapacityEvents() {}

  record Event(String reason, String type, String message) {}

  static Event of(Verdict.Change change, Verdict v, ClassModel m) {
    String window =
        v.last() == null
            ? ""
            : String.format(
                ROOT,
                "p95 %.1f ms vs target %.1f ms at %.1f req/s per pod on %d pods",
                v.last().latencyMs(),
                m.targetMs(),
                v.last().perPodRps(),
                v.last().pods());
    String cutoffs =
        String.format(
            ROOT,
            "effective cut-off %.1f req/s per pod (calibrated %.1f%s)",
            v.effectivePerPodRps(),
            m.calibratedPerPodRps(),
            v.live() == null
                ? ""
                : String.format(
                    ROOT,
                    ", live %.1f ± %.1f by %s",
                    v.live().perPodRps(),
                    v.live().errorRps(),
                    v.live().basis()));
    return switch (change) {
      case SLO_LOST -> new Event("SloNotHeld", "Warning", window);
      case SLO_RESTORED -> new Event("SloHeld", "Normal", window);
      case LOWERED ->
          new Event(
              "CapacityLowered",
              "Warning",
              "live traffic: " + window + "; " + cutoffs + "; re-planning");
      case RAISED -> new Event("CapacityRaised", "Normal", "calm probe: " + cutoffs);
      case CLEARED -> new Event("CapacityRestored", "Normal", cutoffs);
    };
  }
}
