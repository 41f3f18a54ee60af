package dev.isolato.pipeline;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The primary bottleneck: the step (Section 6.3) or stage (Section 3.1) whose measured share of the
 * deployment time exceeds its predicted best-case share the most (Figure 8: T_cpo, 1 % predicted vs
 * 97 % measured).
 *
 * @param step the step when the measurement resolves steps; empty for a stage-level measurement
 * @param gap measuredShare − predictedShare
 * @param potentialGain the fraction of the measured time saved if this step (stage) ran at its best
 *     case: (measured − predicted seconds) / measured total. For Figure 8 it is 96.9 %; the paper
 *     reports 96 %, its share gap 97 % − 1 %.
 */
public record Bottleneck(
    Stage stage,
    Optional<Step> step,
    double measuredSeconds,
    double predictedSeconds,
    double measuredShare,
    double predictedShare,
    double gap,
    double potentialGain) {

  /** By step; empty when nothing was measured. */
  public static Optional<Bottleneck> detect(Breakdown measured, Breakdown predicted) {
    return gaps(
            Stream.of(Step.values()),
            measured::of,
            predicted::of,
            measured.total(),
            predicted.total())
        .findFirst()
        .map(Bottleneck::ofStep);
  }

  /**
   * By stage, for measurements that resolve stages only (the tracer); empty when nothing was
   * measured.
   */
  public static Optional<Bottleneck> detectStage(Map<Stage, Double> measured, Breakdown predicted) {
    return rankStages(measured, predicted).stream().findFirst();
  }

  /**
   * Every stage, largest gap first: the primary bottleneck, then the next ones (for measurements
   * that resolve stages only); empty when nothing was measured.
   */
  public static List<Bottleneck> rankStages(Map<Stage, Double> measured, Breakdown predicted) {
    double total = measured.values().stream().mapToDouble(Double::doubleValue).sum();
    return gaps(
            Arrays.stream(Stage.values()),
            s -> measured.getOrDefault(s, 0.0),
            predicted::stage,
            total,
            predicted.total())
        .map(
            g ->
                new Bottleneck(
                    g.key(),
                    Optional.empty(),
                    g.measured(),
                    g.predicted(),
                    g.measuredShare(),
                    g.predictedShare(),
                    g.gap(),
                    g.gain()))
        .toList();
  }

  /**
   * The steps of {@code stage}'s stage that the components timed, largest gap first: the stage's
   * measured seconds shared out by each step's summed time ({@code stepSeconds}: operations
   * overlap, so only the proportions are comparable with the run), against the model's seconds for
   * the step; shares are of the whole run. Empty when no step of the stage was timed.
   */
  public static List<Bottleneck> rankSteps(
      Bottleneck stage, Map<Step, Double> stepSeconds, Breakdown predicted) {
    List<Step> steps =
        Arrays.stream(Step.values())
            .filter(s -> s.stage() == stage.stage() && stepSeconds.getOrDefault(s, 0.0) > 0)
            .toList();
    double timed = steps.stream().mapToDouble(stepSeconds::get).sum();
    if (timed <= 0 || stage.measuredShare() <= 0) {
      return List.of();
    }
    double runSeconds = stage.measuredSeconds() / stage.measuredShare();
    return gaps(
            steps.stream(),
            s -> stage.measuredSeconds() * stepSeconds.get(s) / timed,
            predicted::of,
            runSeconds,
            predicted.total())
        .map(Bottleneck::ofStep)
        .toList();
  }

  private static Bottleneck ofStep(Gap<Step> g) {
    return new Bottleneck(
        g.key().stage(),
        Optional.of(g.key()),
        g.measured(),
        g.predicted(),
        g.measuredShare(),
        g.predictedShare(),
        g.gap(),
        g.gain());
  }

  private record Gap<K>(
      K key, double measured, double predicted, double measuredTotal, double predictedTotal) {
    double measuredShare() {
      return measured / measuredTotal;
    }

    double predictedShare() {
      return predictedTotal == 0 ? 0 : predicted / predictedTotal;
    }

    double gap() {
      return measuredShare() - predictedShare();
    }

    double gain() {
      return Math.max(0, measured - predicted) / measuredTotal;
    }
  }

  /** Largest gap first; none when nothing was measured. */
  private static <K> Stream<Gap<K>> gaps(
      Stream<K> keys,
      Function<K, Double> measured,
      Function<K, Double> predicted,
      double measuredTotal,
      double predictedTotal) {
    if (measuredTotal <= 0) {
      return Stream.empty();
    }
    return keys.map(
            k -> new Gap<>(k, measured.apply(k), predicted.apply(k), measuredTotal, predictedTotal))
        .sorted(Comparator.comparingDouble((Gap<K> g) -> g.gap()).reversed());
  }
}
