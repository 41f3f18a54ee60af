package dev.isolato.capacity;

import dev.isolato.slo.ContextCutoff;
import dev.isolato.slo.ContextStability;
import dev.isolato.slo.StabilityAnalyzer;
import dev.isolato.slo.StabilityPolicy;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A class's verification from its pools' verdicts: the SLO holds when it holds in every pool; the
 * effective cut-off is the lowest any pool found (one cut-off serves the whole class); the live
 * estimate shown is that pool's. The live estimate is then judged against the calibrated context by
 * the SLO engine's stability analysis ({@link StabilityAnalyzer}, the live context labelled {@value
 * #LIVE_CONTEXT}).
 *
 * @param pool the verdict that speaks for the class (the failing or most limited pool)
 * @param stability the live context against the calibrated one; empty while the estimate is only a
 *     lower bound within the limit
 */
public record ClassVerdict(Verdict pool, Optional<ContextStability> stability) {
  public static final String LIVE_CONTEXT = "live";

  /**
   * Combines a class's pool verdicts (at least one).
   *
   * @param calibratedContext the context label the calibrated cut-off was measured in ({@code
   *     declared} when none)
   */
  public static ClassVerdict of(
      String sloClass,
      List<Verdict> pools,
      double calibratedPerPodRps,
      String calibratedContext,
      VerificationPolicy policy) {
    Verdict speaking =
        pools.stream()
            .min(
                Comparator.comparing((Verdict v) -> v.sloHeld())
                    .thenComparingDouble(Verdict::effectivePerPodRps)
                    .thenComparing(v -> v.since() == null ? Instant.MAX : v.since()))
            .orElseThrow();
    return new ClassVerdict(
        speaking,
        stability(sloClass, speaking.live(), calibratedPerPodRps, calibratedContext, policy));
  }

  /**
   * The live context against the calibrated one; a lower bound (SLO held throughout) counts only
   * when it already exceeds the calibrated figure beyond the limit.
   */
  static Optional<ContextStability> stability(
      String sloClass,
      LiveEstimate live,
      double calibrated,
      String calibratedContext,
      VerificationPolicy policy) {
    if (live == null || !(calibrated > 0) || !(live.perPodRps() > 0)) {
      return Optional.empty();
    }
    String label = LIVE_CONTEXT.equals(calibratedContext) ? "calibrated" : calibratedContext;
    var report =
        new StabilityAnalyzer(new StabilityPolicy(policy.maxDeviationPct(), label))
            .analyze(
                sloClass,
                List.of(
                    new ContextCutoff(label, calibrated, List.of()),
                    new ContextCutoff(LIVE_CONTEXT, live.perPodRps(), List.of())),
                Set.of());
    ContextStability liveContext =
        report.contexts().stream()
            .filter(c -> c.label().equals(LIVE_CONTEXT))
            .findFirst()
            .orElseThrow();
    if (!live.bounded() && liveContext.deviationPct() < 0) {
      return Optional.empty();
    }
    return Optional.of(liveContext);
  }
}
