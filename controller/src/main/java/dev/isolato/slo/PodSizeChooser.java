package dev.isolato.slo;

import static dev.isolato.slo.Text.fmt;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Chooses a class's pod size from the cut-offs calibrated at each candidate: the size that reserves
 * the least CPU for the rate the class is sized for (the least CPU per committed req/s), among
 * those whose replicas, at the measured per-pod cut-off plus headroom, fit in maxReplicas. A small
 * CFS quota can lose more than its share at the tail (a request that arrives after the pod's quota
 * is spent waits for the next 100 ms period), so CPU per req/s is not assumed constant across
 * sizes: the measured cut-offs decide. Sizes without a calibration are not chosen; without any, the
 * declared size stays.
 */
public final class PodSizeChooser {
  private final double headroom;

  public PodSizeChooser(double headroom) {
    this.headroom = headroom;
  }

  /**
   * What one candidate size would cost for the sized rate; {@code reason} is null when it
   * qualifies.
   */
  public record Option(
      long cpuMillis, Double perPodCutoffRps, int replicas, long reservedCpuMillis, String reason) {

    public boolean qualifies() {
      return reason == null;
    }

    /** CPU per req/s at this size's cut-off (millicores); +∞ when not calibrated. */
    public double cpuMillisPerRps() {
      return perPodCutoffRps == null ? Double.POSITIVE_INFINITY : cpuMillis / perPodCutoffRps;
    }
  }

  /** The chosen size, every option, and the lines that explain the choice. */
  public record Choice(
      long cpuMillis,
      Double perPodCutoffRps,
      boolean changed,
      List<Option> options,
      List<String> explanation) {
    public Choice {
      options = List.copyOf(options);
      explanation = List.copyOf(explanation);
    }
  }

  public Choice choose(PodSizing sizing, double sizedRps, int minReplicas, int maxReplicas) {
    double planned = sizedRps * (1 + headroom);
    List<Option> options = new ArrayList<>();
    for (PodSizing.SizeCutoff c : sizing.candidates()) {
      options.add(option(c, planned, minReplicas, maxReplicas));
    }
    Option best =
        options.stream()
            .filter(Option::qualifies)
            .min(
                Comparator.comparingLong(Option::reservedCpuMillis)
                    .thenComparingDouble(Option::cpuMillisPerRps)
                    .thenComparing(o -> o.cpuMillis() != sizing.declaredCpuMillis()))
            .orElse(null);
    List<String> why = new ArrayList<>();
    long chosen = best == null ? sizing.declaredCpuMillis() : best.cpuMillis();
    if (best == null) {
      why.add(
          fmt(
              "pod size: the declared %s stays; no candidate size qualifies for %.1f rps",
              millis(chosen), planned));
    } else {
      why.add(
          fmt(
              "pod size: %s (declared %s), the least CPU reserved for %.1f rps among %d candidates: %d × %s = %s",
              millis(chosen),
              millis(sizing.declaredCpuMillis()),
              planned,
              options.size(),
              best.replicas(),
              millis(chosen),
              millis(best.reservedCpuMillis())));
    }
    for (Option o : options) {
      why.add(
          o.qualifies()
              ? fmt(
                  "  %s: cut-off %.1f rps per pod (%.2f mCPU per rps) → %d pods, %s reserved",
                  millis(o.cpuMillis()),
                  o.perPodCutoffRps(),
                  o.cpuMillisPerRps(),
                  o.replicas(),
                  millis(o.reservedCpuMillis()))
              : fmt("  %s: %s", millis(o.cpuMillis()), o.reason()));
    }
    Double cutoff = best == null ? null : best.perPodCutoffRps();
    return new Choice(chosen, cutoff, chosen != sizing.declaredCpuMillis(), options, why);
  }

  private static Option option(
      PodSizing.SizeCutoff c, double planned, int minReplicas, int maxReplicas) {
    Double cutoff = c.perPodCutoffRps();
    if (cutoff == null || !(cutoff > 0)) {
      return new Option(c.cpuMillis(), null, 0, 0, "not calibrated at this size");
    }
    int needed = Math.max(minReplicas, (int) Math.ceil(planned / cutoff));
    if (needed > maxReplicas) {
      return new Option(
          c.cpuMillis(),
          cutoff,
          needed,
          needed * c.cpuMillis(),
          fmt(
              "cut-off %.1f rps per pod needs %d pods > maxReplicas %d",
              cutoff, needed, maxReplicas));
    }
    return new Option(c.cpuMillis(), cutoff, needed, needed * c.cpuMillis(), null);
  }

  /** 250 → "250m", 2000 → "2000m" (Kubernetes notation, one unit for comparisons). */
  static String millis(long cpuMillis) {
    return cpuMillis + "m";
  }
}
