package dev.isolato.pipeline;

import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The primary bottleneck: the step whose measured share of the deployment time exceeds its
 * predicted best-case share the most (Section 3.1; Section 6.3: T_cpo, 1 % predicted vs 97 %
 * measured in Figure 8).
 *
 * @param gap measuredShare − predictedShare
 * @param potentialGain the fraction of the measured time saved if this step ran at its best
 *     case: (measured − predicted seconds of the step) / measured total. For Figure 8 this is
 *     96.9 %; the paper reports 96 % (= its share gap, 97 % − 1 %).
 */
public record Bottleneck(Step step, double measuredSeconds, double predictedSeconds, double measuredShare,
    double predictedShare, double gap, double potentialGain) {

  /** Empty when nothing was measured. */
  public static Optional<Bottleneck> detect(Breakdown measured, Breakdown predicted) {
    if (measured.total() <= 0) {
      return Optional.empty();
    }
    return Stream.of(Step.values())
        .map(s -> of(s, measured, predicted))
        .max(Comparator.comparingDouble(Bottleneck::gap));
  }

  static Bottleneck of(Step step, Breakdown measured, Breakdown predicted) {
    double m = measured.of(step);
    double p = predicted.of(step);
    double gain = Math.max(0, m - p) / measured.total();
    return new Bottleneck(step, m, p, measured.share(step), predicted.share(step),
        measured.share(step) - predicted.share(step), gain);
  }
}
