package dev.isolato.tenancy;

import static java.util.Locale.ROOT;

import dev.isolato.capacity.Shortfall;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The class conditions about capacity (docs/calibration.md): {@code Calibrated}, whether the
 * cut-off was measured or only declared; {@code SloHeld}, what the verification loop measured on
 * live traffic (Unknown until it measured), and {@code CapacityShort}, whether the maximum replicas
 * carry the commitments at the cut-off in force. Existing tenants keep their admitted rates when
 * capacity is short (a live measurement may be a passing neighbour; cutting tenants who abide by
 * their commitments would break theirs for certain): new commitments are refused (422) and the
 * operator is told the shortfall.
 */
public final class CapacityConditions {
  public static final String SLO_HELD = "SloHeld";
  public static final String CAPACITY_SHORT = "CapacityShort";
  public static final String CALIBRATED = "Calibrated";

  private CapacityConditions() {}

  /** The capacity conditions for the class's status (empty: nothing to say yet). */
  public static List<Condition> of(
      SloClass cls, SloClassStatus.Plan plan, List<Condition> previous, Instant now) {
    List<Condition> out = new ArrayList<>(3);
    out.add(calibrated(cls, previous, now));
    SloClassStatus.Capacity cap = cls.getStatus() == null ? null : cls.getStatus().capacity;
    out.add(
        cap != null && cap.sloHeld != null
            ? sloHeld(cap, now)
            : new ConditionBuilder()
                .withType(SLO_HELD)
                .withStatus("Unknown")
                .withReason("NotVerified")
                .withMessage(
                    "no live verification yet: no Prometheus configured, or no traffic measured")
                .withLastTransitionTime(since(previous, now))
                .build());
    Optional<Shortfall> shortfall =
        plan == null
            ? Optional.empty()
            : Shortfall.of(plan.committedRps, cls.getSpec().maxReplicas, plan.perPodCutoffRps);
    if (shortfall.isPresent() || cap != null) {
      out.add(
          capacityShort(
              shortfall, previous, CalibrationStatusMapper.liveLimit(cls).isPresent(), now));
    }
    return out;
  }

  /**
   * Whether the cut-off the class is planned on was measured: a declared figure is a guess until a
   * calibration measured it where the class runs ({@code Uncalibrated}).
   */
  private static Condition calibrated(SloClass cls, List<Condition> previous, Instant now) {
    double cutoff = CalibrationStatusMapper.calibratedPerPodCutoff(cls);
    SloClassStatus.Context context = cls.getStatus() == null ? null : cls.getStatus().context;
    if (CalibrationStatusMapper.perPodCutoffMeasured(cls)
        && CalibrationStatusMapper.contextCutoff(cls) != null
        && SloClassStatus.Context.NO_MATCH.equals(context.match)) {
      // measured, but not where the pool runs now: as good as a guess until measured there (a
      // class never measured stays Uncalibrated below)
      return Conditions.of(
          previous,
          CALIBRATED,
          false,
          "ContextChanged",
          String.join("; ", context.notes == null ? List.of() : context.notes),
          now);
    }
    return CalibrationStatusMapper.perPodCutoffMeasured(cls)
        ? Conditions.of(
            previous,
            CALIBRATED,
            true,
            "Measured",
            String.format(
                ROOT,
                "planned on the measured %.1f req/s per pod (calibrated %s)%s",
                cutoff,
                cls.getStatus().calibratedAt,
                CalibrationStatusMapper.contextCutoff(cls) == null
                    ? ""
                    : " in the context the pool runs in, " + String.join(", ", context.measuredIn)),
            now)
        : Conditions.of(
            previous,
            CALIBRATED,
            false,
            "Uncalibrated",
            String.format(
                ROOT,
                "planned on the declared %.1f req/s per pod, never measured where the class"
                    + " runs; calibrate it (POST /api/v1/slo-classes/{name}/calibrations)",
                cutoff),
            now);
  }

  /** The Unknown condition's transition time: kept while it stays Unknown. */
  private static String since(List<Condition> previous, Instant now) {
    return previous == null
        ? now.toString()
        : previous.stream()
            .filter(c -> SLO_HELD.equals(c.getType()) && "Unknown".equals(c.getStatus()))
            .map(Condition::getLastTransitionTime)
            .findFirst()
            .orElse(now.toString());
  }

  private static Condition sloHeld(SloClassStatus.Capacity cap, Instant now) {
    String measured =
        cap.measuredLatencyMs == null
            ? "no traffic measured yet"
            : String.format(
                ROOT,
                "p95 %.1f ms vs target %.1f ms at %.1f req/s per pod on %d pods",
                cap.measuredLatencyMs,
                cap.targetMs,
                cap.perPodRps,
                cap.pods);
    return new ConditionBuilder()
        .withType(SLO_HELD)
        .withStatus(cap.sloHeld ? "True" : "False")
        .withReason(cap.sloHeld ? "WithinTarget" : "OverTarget")
        .withMessage(measured + (cap.sloHeld ? "" : " (live verification)"))
        .withLastTransitionTime(cap.sloHeldSince != null ? cap.sloHeldSince : now.toString())
        .build();
  }

  private static Condition capacityShort(
      Optional<Shortfall> s, List<Condition> previous, boolean live, Instant now) {
    if (s.isEmpty()) {
      return Conditions.of(
          previous,
          CAPACITY_SHORT,
          false,
          "MaximumCarriesCommitments",
          "the class's maximum replicas carry its commitments",
          now);
    }
    Shortfall f = s.get();
    return Conditions.of(
        previous,
        CAPACITY_SHORT,
        true,
        live ? "LiveCapacityShort" : "MaximumTooSmall",
        String.format(
            ROOT,
            "commitments %.1f req/s exceed %d pods × %.1f req/s per pod (%s) = %.1f req/s by"
                + " %.1f req/s; new commitments are refused, existing tenants keep their"
                + " admitted rates",
            f.committedRps(),
            f.maxReplicas(),
            f.perPodRps(),
            live ? "live" : "calibrated",
            f.capacityRps(),
            f.shortRps()),
        now);
  }
}
