package dev.isolato.pipeline;

import java.util.Map;

/**
 * A run's stages against the model's best case for its shape, as the loop and the path benchmark
 * compare them: the single-pod run is the model's input (at stage level), and when the kubelet
 * reported sandbox and containers in one status update (S6 reads 0) both sides are compared with S5
 * counted as S6 ({@link Timeline#foldS5IntoS6}).
 *
 * @param predicted the model's best case, per stage as predicted
 * @param measured the run's stages as compared (S5 folded into S6 when merged)
 * @param compared the best case as compared (likewise)
 */
public record StageComparison(
    Breakdown predicted, boolean s5AndS6Merged, Map<Stage, Double> measured, Breakdown compared) {

  public StageComparison {
    measured = Map.copyOf(measured);
  }

  public static StageComparison of(
      Map<Stage, Double> run, Map<Stage, Double> single, WorkloadShape shape, Hardware h) {
    return of(run, single, Map.of(), shape, h);
  }

  /**
   * With the single pod's kubelet step timings ({@link Breakdown#ofSingle}): the model then scales
   * only the kubelet's work with the pods, not the wait for its relist.
   */
  public static StageComparison of(
      Map<Stage, Double> run,
      Map<Stage, Double> single,
      Map<Step, Measure> singleKubelet,
      WorkloadShape shape,
      Hardware h) {
    Breakdown predicted =
        PipelineModel.predict(Breakdown.ofSingle(single, singleKubelet), shape, h);
    boolean merged = Timeline.s5AndS6Merged(run);
    return new StageComparison(
        predicted,
        merged,
        merged ? Timeline.foldS5IntoS6(run) : run,
        merged ? Breakdown.atStageLevel(Timeline.foldS5IntoS6(predicted.byStage())) : predicted);
  }
}
