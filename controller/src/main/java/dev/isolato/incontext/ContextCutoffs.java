package dev.isolato.incontext;

import static java.util.Locale.ROOT;

import dev.isolato.slo.ContextCutoff;
import dev.isolato.slo.ContextStability;
import dev.isolato.slo.StabilityAnalyzer;
import dev.isolato.slo.StabilityPolicy;
import dev.isolato.slo.StabilityReport;
import dev.isolato.tenancy.SloClassStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which per-pod cut-off the planner uses (issue 34 item 4): the one measured in the context the
 * pool runs in, never one from a context it was not measured in.
 *
 * <ul>
 *   <li>Every node of the pool has figures of its context ({@link ContextKey#matches}): per node,
 *       the newest figure when that context's figures are stable ({@link StabilityAnalyzer} over
 *       them, the median as baseline), else the lowest of them; the class's figure is the lowest
 *       over its nodes (one cut-off serves the whole class). {@value #MATCHED}.
 *   <li>A node's context has no figure (a new neighbour class came, the pod moved to a node of
 *       another type or one never calibrated on): the conservative fallback, the lowest of the
 *       declared figure and every figure measured in any context — a figure from elsewhere may
 *       lower the plan, never raise it above the declared one — and a recalibration is due. {@value
 *       #NO_MATCH}.
 *   <li>No serving pod placed yet: there is no context to match, and the caller keeps the newest
 *       figure as before. {@value #UNPLACED}.
 * </ul>
 */
public final class ContextCutoffs {
  public static final String MATCHED = SloClassStatus.Context.MATCHED;
  public static final String NO_MATCH = SloClassStatus.Context.NO_MATCH;
  public static final String UNPLACED = SloClassStatus.Context.UNPLACED;

  private ContextCutoffs() {}

  /**
   * One stored figure, oldest first in the input.
   *
   * @param context its context label
   * @param perPodRps the per-pod cut-off measured there
   */
  public record Figure(String context, double perPodRps) {}

  /**
   * The choice.
   *
   * @param perPodRps the figure to plan on; null when {@value #UNPLACED}
   * @param measuredIn the contexts of the figures used ({@code declared} for the declared one)
   * @param unmatched the pool's contexts with no figure
   * @param stable whether the figures of every matched context agree within the policy
   * @param notes why, in words
   */
  public record Choice(
      String match,
      Double perPodRps,
      List<String> measuredIn,
      List<String> unmatched,
      boolean stable,
      List<String> notes) {
    public Choice {
      measuredIn = List.copyOf(measuredIn);
      unmatched = List.copyOf(unmatched);
      notes = List.copyOf(notes);
    }

    /** A figure for the pool's contexts is missing: a calibration there is due. */
    public boolean recalibrationDue() {
      return NO_MATCH.equals(match);
    }
  }

  /**
   * Chooses the figure for a pool that runs in {@code byNode}.
   *
   * @param ioHeavy whether the class's own pool is IO-heavy (an IO-heavy neighbour then makes the
   *     context unsafe, whatever its cut-off)
   * @param figures the class's figures at the pod size planned, oldest first
   * @param byNode the context of each node holding a serving pod of the pool
   * @param declared the class's declared per-pod cut-off
   */
  public static Choice choose(
      String sloClass,
      boolean ioHeavy,
      List<Figure> figures,
      Map<String, ContextKey> byNode,
      double declared,
      StabilityPolicy policy) {
    List<Figure> usable = figures.stream().filter(f -> f.perPodRps() > 0).toList();
    if (byNode.isEmpty()) {
      return new Choice(
          UNPLACED,
          null,
          List.of(),
          List.of(),
          true,
          List.of("no serving pod placed yet: no context to match"));
    }
    Set<String> measuredIn = new LinkedHashSet<>();
    Set<String> unmatched = new LinkedHashSet<>();
    List<String> notes = new ArrayList<>();
    boolean stable = true;
    double perPod = Double.POSITIVE_INFINITY;
    for (ContextKey key : new LinkedHashSet<>(byNode.values())) {
      List<Figure> here =
          usable.stream()
              .filter(f -> ContextKey.parse(f.context()).filter(key::matches).isPresent())
              .toList();
      if (here.isEmpty()) {
        unmatched.add(key.label());
        continue;
      }
      StabilityReport report = analyze(sloClass, ioHeavy, key, here, policy);
      boolean agree = report.contexts().stream().noneMatch(ContextStability::unstable);
      double figure = agree ? here.get(here.size() - 1).perPodRps() : report.minRps();
      if (!agree) {
        stable = false;
        notes.add(
            fmt(
                "the %d figures of %s spread %.1f%% (limit ±%.1f%%): planned on their lowest",
                here.size(), key.label(), report.spreadPct(), policy.maxDeviationPct()));
      }
      report.contexts().stream()
          .filter(ContextStability::ioUnsafe)
          .findFirst()
          .ifPresent(c -> notes.add(c.reasons().get(c.reasons().size() - 1)));
      measuredIn.add(key.label());
      perPod = Math.min(perPod, figure);
    }
    if (unmatched.isEmpty()) {
      notes.add(0, fmt("planned on %.1f req/s per pod measured in %s", perPod, join(measuredIn)));
      return new Choice(MATCHED, perPod, List.copyOf(measuredIn), List.of(), stable, notes);
    }
    double fallback = declared;
    String from = "declared";
    for (Figure f : usable) {
      if (f.perPodRps() < fallback) {
        fallback = f.perPodRps();
        from = f.context();
      }
    }
    if (fallback < perPod) {
      perPod = fallback;
      measuredIn.add(from);
    }
    notes.add(
        0,
        fmt(
            "no cut-off measured in %s: planned on %.1f req/s per pod, the lowest of the declared"
                + " figure and those measured in other contexts (from %s); a recalibration is due",
            join(unmatched), perPod, from));
    return new Choice(
        NO_MATCH, perPod, List.copyOf(measuredIn), List.copyOf(unmatched), stable, notes);
  }

  /**
   * Whether a change of context moved the figure the class is planned on significantly: the
   * stability analysis of the new figure against the old one as baseline, beyond the policy's limit
   * either way (a higher figure vanishes as easily when the context changes back).
   */
  public static ContextStability shift(
      String sloClass, double before, double after, StabilityPolicy policy) {
    return new StabilityAnalyzer(new StabilityPolicy(policy.maxDeviationPct(), "before"))
        .analyze(
            sloClass,
            List.of(
                new ContextCutoff("before", before, List.of()),
                new ContextCutoff("after", after, List.of())),
            Set.of())
        .contexts()
        .get(1);
  }

  /** The stability analysis of one context's figures, the class's IO-heavy peers named. */
  private static StabilityReport analyze(
      String sloClass, boolean ioHeavy, ContextKey key, List<Figure> here, StabilityPolicy policy) {
    List<ContextCutoff> cutoffs = new ArrayList<>(here.size());
    for (int i = 0; i < here.size(); i++) {
      cutoffs.add(new ContextCutoff("#" + (i + 1), here.get(i).perPodRps(), key.neighbours()));
    }
    Set<String> io = new LinkedHashSet<>(key.ioNeighbours());
    if (ioHeavy) {
      io.add(sloClass);
    }
    // no figure is labelled as the policy's baseline: the median of the context's figures is
    return new StabilityAnalyzer(new StabilityPolicy(policy.maxDeviationPct(), ""))
        .analyze(sloClass, cutoffs, io);
  }

  private static String join(Collection<String> labels) {
    return String.join(", ", labels);
  }

  private static String fmt(String format, Object... args) {
    return String.format(ROOT, format, args);
  }
}
