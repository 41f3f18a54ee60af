package dev.isolato.slo;

import static dev.isolato.slo.Text.fmt;

import dev.isolato.calibration.CalibrationRun;
import dev.isolato.calibration.CalibrationValidator;
import dev.isolato.calibration.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The SLO engine's facade for the REST layer and the reconcilers: ingest calibration runs (cut-off
 * with evidence, fitted model), plan a class, simulate a tenant set, and compare cut-offs across
 * contexts. Stateless and thread-safe; inputs and outputs are plain records.
 */
public final class SloEngine {
  private final SloEngineConfig config;
  private final CutoffDetector detector;
  private final BestFit fitter;
  private final CapacityPlanner planner;
  private final LinearCapacityPlanner linear = new LinearCapacityPlanner();
  private final StabilityAnalyzer stability;

  public SloEngine(SloEngineConfig config) {
    this.config = config;
    this.detector = new CutoffDetector(config.detection());
    this.fitter = new BestFit(config.fit(), config.detection());
    this.planner =
        new PodSizingPlanner(
            new ModelCapacityPlanner(config.plan()), new PodSizeChooser(config.plan().headroom()));
    this.stability = new StabilityAnalyzer(config.stability());
  }

  public static SloEngine withDefaults() {
    return new SloEngine(SloEngineConfig.defaults());
  }

  public SloEngineConfig config() {
    return config;
  }

  /**
   * The planner reconciliation should use (pod size chosen among candidates, model-based, linear
   * fallback).
   */
  public CapacityPlanner planner() {
    return planner;
  }

  /** Field errors of a run for a target (empty: the run can be ingested). */
  public List<FieldError> validate(CalibrationRun run, ClassTarget target) {
    List<FieldError> errors = new ArrayList<>(CalibrationValidator.validate(run));
    errors.addAll(target.validate("target."));
    if (run != null
        && run.sloClass() != null
        && target.sloClass() != null
        && !run.sloClass().equals(target.sloClass())) {
      errors.add(
          new FieldError(
              "sloClass",
              "run is for class '"
                  + run.sloClass()
                  + "' but the target is for class '"
                  + target.sloClass()
                  + "'"));
    }
    return errors;
  }

  /**
   * The run's cut-off, nothing stored or fitted (where to refine an in-context ramp).
   *
   * @throws InvalidInputException with every field error when the run or target is invalid
   */
  public CutoffResult detect(CalibrationRun run, ClassTarget target) {
    InvalidInputException.throwIfAny(validate(run, target));
    return detector.detect(
        points(run, target.percentile()), target.percentile(), target.targetLatencyMs());
  }

  /**
   * Detects the run's cut-off and fits the model on it.
   *
   * @throws InvalidInputException with every field error when the run or target is invalid
   */
  public CalibrationOutcome ingest(CalibrationRun run, ClassTarget target) {
    InvalidInputException.throwIfAny(validate(run, target));
    List<RatePoint> points = points(run, target.percentile());
    CutoffResult cutoff = detector.detect(points, target.percentile(), target.targetLatencyMs());
    ModelFit fit = fitter.fit(points, target.percentile(), target.targetLatencyMs());
    int replicas = run.context().replicas();
    List<String> warnings = new ArrayList<>();
    if (run.partial()) {
      warnings.add(fmt("partial run: only the %d steps present were used", run.steps().size()));
    }
    if (CutoffResult.NOT_REACHED.equals(cutoff.status())) {
      warnings.add(
          "the SLO held at every step: the cut-off is a lower bound; calibrate to higher rates");
    }
    Double perPod = cutoff.cutoffRps() == null ? null : cutoff.cutoffRps() / replicas;
    return new CalibrationOutcome(
        run.runId(),
        run.sloClass(),
        run.context().label(),
        replicas,
        target,
        cutoff,
        perPod,
        fit,
        warnings);
  }

  /**
   * Fits one model on several runs of the same class and context, e.g. at different replica counts
   * (which makes σ, the contention between replicas, identifiable).
   *
   * @throws InvalidInputException with field errors prefixed by {@code runs[i].}
   */
  public ModelFit fit(List<CalibrationRun> runs, ClassTarget target) {
    List<FieldError> errors = new ArrayList<>();
    if (runs.isEmpty()) {
      errors.add(new FieldError("runs", "must contain at least one run"));
    }
    for (int i = 0; i < runs.size(); i++) {
      for (FieldError e : validate(runs.get(i), target)) {
        errors.add(
            e.field().startsWith("target.")
                ? e
                : new FieldError("runs[" + i + "]." + e.field(), e.message()));
      }
    }
    InvalidInputException.throwIfAny(errors.stream().distinct().toList());
    List<RatePoint> points = new ArrayList<>();
    for (CalibrationRun run : runs) {
      points.addAll(points(run, target.percentile()));
    }
    return fitter.fit(points, target.percentile(), target.targetLatencyMs());
  }

  /**
   * The class's plan: model-based when the request carries a trusted fit, else the flagged linear
   * fallback.
   */
  public CapacityPlan plan(PlanRequest request) {
    InvalidInputException.throwIfAny(PlanRequestValidator.validate(request));
    return planner.plan(request);
  }

  /**
   * A what-if plan for the request's tenant set, with the linear baseline and predicted latencies.
   */
  public SimulationResult simulate(PlanRequest request) {
    CapacityPlan plan = plan(request);
    CapacityPlan baseline = request.perPodCutoffRps() > 0 ? linear.plan(request) : null;
    double total = request.totalSizedRps();
    boolean modelled = ModelCapacityPlanner.METHOD.equals(plan.method());
    LatencyModel model = modelled ? request.fit().model() : null;
    Double predicted = modelled ? model.latencyMs(total, plan.replicas()) : null;
    Double linearPredicted =
        modelled && baseline != null && baseline.replicas() >= 1
            ? model.latencyMs(total, baseline.replicas())
            : null;
    return new SimulationResult(total, plan, baseline, predicted, linearPredicted);
  }

  /** Spread of a class's cut-offs across contexts, unstable contexts and unsafe IO co-location. */
  public StabilityReport stability(
      String sloClass, List<ContextCutoff> cutoffs, Set<String> ioIntensiveClasses) {
    return stability.analyze(sloClass, cutoffs, ioIntensiveClasses);
  }

  private static List<RatePoint> points(CalibrationRun run, double percentile) {
    int replicas = run.context().replicas();
    return run.steps().stream().map(s -> RatePoint.of(s, replicas, percentile)).toList();
  }
}
