package dev.isolato.slo;

import static dev.isolato.slo.Text.fmt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.hipparchus.exception.MathRuntimeException;
import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.ArrayRealVector;
import org.hipparchus.linear.QRDecomposition;
import org.hipparchus.linear.RealMatrix;
import org.hipparchus.linear.RealVector;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresBuilder;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LevenbergMarquardtOptimizer;
import org.hipparchus.optim.nonlinear.vector.leastsquares.MultivariateJacobianFunction;

/**
 * What fitting a {@link LatencyModel} form to calibration steps has in common across forms: which
 * steps are used, outliers, the fit quality and whether the fit can be trusted. A form ({@link
 * UslFitter}, {@link QueueFitter}) supplies the optimisation, how its predictions are scored
 * against a step and its own plausibility checks.
 *
 * <p>Only healthy steps are used (errors and achieved rate within the {@link DetectionPolicy}):
 * once the achieved rate falls behind the offered one, the measured percentiles describe a
 * collapsing system, not the curve. Gross outliers of a first fit are dropped and the fit repeated
 * once (see {@link #withoutOutliers}). σ (contention between replicas) is fitted only when the
 * steps cover at least two replica counts; otherwise it is fixed at {@link
 * FitPolicy#assumedSigma()}. R² and RMSE are computed on latency in ms over the steps used, the
 * same measure for every form.
 */
public abstract sealed class ModelFitter permits UslFitter, QueueFitter {
  /** Largest fitted σ; at it adding replicas adds almost no capacity and the fit is refused. */
  static final double MAX_SIGMA = 0.95;

  private static final int MAX_EVALUATIONS = 2_000;

  /**
   * Widest gap, relative to the cut-off, between a count's cut-off and its first failing step for σ
   * to come from the cut-offs: with coarser steps each count's cut-off may sit up to a step below
   * the truth, and σ takes the difference (a 10 % ramp step turned σ = 0.2 into 0.08). The runner's
   * knee bisection brings it to <= 5 % (issue 13).
   */
  static final double MAX_CUTOFF_RESOLUTION = 0.05;

  /** σ tried for the starting point when σ is fitted. */
  static final double[] SIGMA_GRID = {0, 0.02, 0.05, 0.1, 0.2, 0.4};

  protected final FitPolicy policy;
  private final DetectionPolicy health;

  ModelFitter(FitPolicy policy, DetectionPolicy health) {
    this.policy = policy;
    this.health = health;
  }

  /** The form's name ({@link LatencyModel#form()}). */
  abstract String form();

  /**
   * The fitted model of the form on {@code used} (healthy steps); {@code capMs} is the highest
   * latency measured among them.
   *
   * @throws MathRuntimeException when the optimiser fails
   */
  abstract LatencyModel optimise(
      List<RatePoint> used, OptionalDouble fixedSigma, double theta, double capMs);

  /** The latency the fit is scored with at step {@code p} (residuals, R², outliers). */
  abstract double scoredMs(LatencyModel model, RatePoint p, double capMs);

  /** Why the fitted parameters are implausible for the form; empty when plausible. */
  abstract List<String> implausible(LatencyModel model);

  /** A fit without a target: σ, when identifiable, is fitted on the latency steps. */
  public ModelFit fit(List<RatePoint> points, double percentile) {
    return fit(points, percentile, null);
  }

  /**
   * A fit for {@code targetMs} (null: none). When the steps cover two or more replica counts and
   * each count's steps reach a cut-off for the target, σ comes from those cut-offs ({@link
   * CutoffScaling}) and the curve is fitted on the smallest count's steps with that σ; otherwise σ
   * is fitted jointly on every step.
   */
  public ModelFit fit(List<RatePoint> points, double percentile, Double targetMs) {
    List<RatePoint> used = new ArrayList<>();
    for (RatePoint p : points) {
      if (health.healthy(p)) {
        used.add(p);
      }
    }
    int excluded = points.size() - used.size();
    TreeSet<Integer> replicaCounts = new TreeSet<>();
    for (RatePoint p : used) {
      replicaCounts.add(p.replicas());
    }
    boolean fitSigma = replicaCounts.size() >= 2;
    List<String> notes = new ArrayList<>();
    OptionalDouble fixedSigma =
        fitSigma ? OptionalDouble.empty() : OptionalDouble.of(policy.assumedSigma());
    double theta = 0; // measurable only from cut-offs at two or more replica counts
    Optional<CutoffScaling> scaling =
        fitSigma && targetMs != null
            ? scaling(points, replicaCounts, percentile, targetMs, notes)
            : Optional.empty();
    if (scaling.isPresent()) {
      int base = replicaCounts.first();
      List<RatePoint> baseSteps = used.stream().filter(p -> p.replicas() == base).toList();
      if (baseSteps.size() >= Math.max(policy.minPoints(), 5)) {
        used = baseSteps;
        fixedSigma = OptionalDouble.of(scaling.get().sigma());
        theta = scaling.get().theta();
        notes.add(
            scaling.get().describe()
                + fmt("; the latency curve is the %d-replica steps' (the others scale it)", base));
      } else {
        scaling = Optional.empty();
        notes.add(
            fmt(
                "σ fitted on every step: %d healthy steps at %d replicas, too few for the curve",
                baseSteps.size(), base));
      }
    }
    int parameters = fixedSigma.isEmpty() ? 4 : 3;
    int needed = Math.max(policy.minPoints(), parameters + 2);
    TreeSet<Double> loads = new TreeSet<>();
    for (RatePoint p : used) {
      loads.add(p.offeredRps() / p.replicas());
    }
    List<String> reasons = new ArrayList<>();
    if (used.size() < needed) {
      reasons.add(
          fmt(
              "too few points: %d healthy steps (%d excluded for errors or saturation), need >= %d",
              used.size(), excluded, needed));
    }
    if (loads.size() < 3) {
      reasons.add(fmt("too few distinct rates: %d, need >= 3 to fit 3 parameters", loads.size()));
    }
    if (!reasons.isEmpty()) {
      return refused(percentile, used.size(), excluded, fitSigma, reasons);
    }
    LatencyModel model;
    double capMs;
    try {
      capMs = maxLatency(used);
      model = optimise(used, fixedSigma, theta, capMs);
      List<RatePoint> inliers = withoutOutliers(model, used, needed, capMs, notes);
      if (inliers.size() < used.size()) {
        excluded += used.size() - inliers.size();
        used = inliers;
        capMs = maxLatency(used);
        model = optimise(used, fixedSigma, theta, capMs);
      }
    } catch (MathRuntimeException e) {
      return refused(
          percentile,
          used.size(),
          excluded,
          fitSigma,
          List.of("optimiser did not converge: " + e.getMessage()));
    }
    if (scaling.isPresent()) {
      LatencyModel fitted = model;
      scaling
          .get()
          .cutoffs()
          .forEach(
              (replicas, measured) ->
                  notes.add(
                      fmt(
                          "%d replicas: cut-off %.1f rps measured, %.1f predicted",
                          replicas, measured, fitted.cutoffRps(targetMs, replicas))));
    }
    return judge(model, used, excluded, fitSigma, percentile, capMs, notes);
  }

  /**
   * The cut-off scaling of the replica counts, when every count's steps reach a cut-off for the
   * target; empty (noted) otherwise.
   */
  private Optional<CutoffScaling> scaling(
      List<RatePoint> points,
      SortedSet<Integer> replicaCounts,
      double percentile,
      double targetMs,
      List<String> notes) {
    CutoffDetector detector = new CutoffDetector(health);
    Map<Integer, Double> cutoffs = new TreeMap<>();
    for (int replicas : replicaCounts) {
      CutoffResult r =
          detector.detect(
              points.stream().filter(p -> p.replicas() == replicas).toList(), percentile, targetMs);
      if (!CutoffResult.FOUND.equals(r.status())) {
        notes.add(
            fmt(
                "σ fitted on every step: no cut-off at %d replicas for %.1f ms (%s)",
                replicas, targetMs, r.status()));
        return Optional.empty();
      }
      double violation =
          r.steps().stream()
              .filter(v -> StepVerdict.VIOLATION.equals(v.role()))
              .mapToDouble(StepVerdict::offeredRps)
              .findFirst()
              .orElse(Double.POSITIVE_INFINITY);
      double resolution = (violation - r.cutoffRps()) / r.cutoffRps();
      if (resolution > MAX_CUTOFF_RESOLUTION) {
        notes.add(
            fmt(
                "σ fitted on every step: the cut-off at %d replicas, %.1f rps, is only known to"
                    + " %.0f %% (next step %.1f rps; σ from cut-offs needs <= %.0f %%)",
                replicas, r.cutoffRps(), 100 * resolution, violation, 100 * MAX_CUTOFF_RESOLUTION));
        return Optional.empty();
      }
      cutoffs.put(replicas, r.cutoffRps());
    }
    return CutoffScaling.of(cutoffs);
  }

  private ModelFit refused(
      double percentile, int used, int excluded, boolean fitSigma, List<String> reasons) {
    return new ModelFit(
        ModelFit.REFUSED,
        form(),
        null,
        percentile,
        used,
        excluded,
        fitSigma,
        0,
        0,
        0,
        List.of(),
        reasons,
        List.of());
  }

  private static double maxLatency(List<RatePoint> used) {
    return used.stream().mapToDouble(RatePoint::latencyMs).max().orElse(0);
  }

  /**
   * Drops gross outliers of a first fit (a latency spike on an otherwise healthy step): relative
   * residuals further than max(4 robust standard deviations, 10%) from their median, at most 10% of
   * the points (at least one) and never below {@code needed} points. Each drop is noted.
   */
  private List<RatePoint> withoutOutliers(
      LatencyModel model, List<RatePoint> used, int needed, double capMs, List<String> notes) {
    int n = used.size();
    double[] rel = new double[n];
    for (int i = 0; i < n; i++) {
      RatePoint p = used.get(i);
      double predicted = scoredMs(model, p, capMs);
      rel[i] = (p.latencyMs() - predicted) / predicted;
    }
    double median = median(rel.clone());
    double[] deviation = new double[n];
    for (int i = 0; i < n; i++) {
      deviation[i] = Math.abs(rel[i] - median);
    }
    double threshold = Math.max(4 * 1.4826 * median(deviation.clone()), 0.10);
    int maxDrops = Math.min(Math.max(1, n / 10), n - needed);
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (deviation[i] > threshold) {
        order.add(i);
      }
    }
    order.sort((a, b) -> Double.compare(deviation[b], deviation[a]));
    List<Integer> dropped = order.subList(0, Math.max(0, Math.min(maxDrops, order.size())));
    List<RatePoint> kept = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      RatePoint p = used.get(i);
      if (dropped.contains(i)) {
        notes.add(
            fmt(
                "step %d at %.1f rps left out as an outlier: %.1f ms is %+.0f%% off the first fit",
                p.stepIndex(), p.offeredRps(), p.latencyMs(), 100 * rel[i]));
      } else {
        kept.add(p);
      }
    }
    return kept;
  }

  private static double median(double[] v) {
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  /**
   * Levenberg–Marquardt from {@code start}; {@code validator} keeps the parameters in the form's
   * domain.
   */
  static double[] leastSquares(
      double[] start,
      MultivariateJacobianFunction model,
      double[] target,
      RealMatrix weight,
      UnaryOperator<RealVector> validator) {
    var problem =
        new LeastSquaresBuilder()
            .start(start)
            .model(model)
            .target(target)
            .weight(weight)
            .parameterValidator(validator::apply)
            .maxEvaluations(MAX_EVALUATIONS)
            .maxIterations(MAX_EVALUATIONS)
            .build();
    return validator
        .apply(new LevenbergMarquardtOptimizer().optimize(problem).getPoint())
        .toArray();
  }

  /** Least-squares solution c of design·c ≈ rhs (QR). */
  static double[] linearLeastSquares(double[][] design, double[] rhs) {
    return new QRDecomposition(new Array2DRowRealMatrix(design, false))
        .getSolver()
        .solve(new ArrayRealVector(rhs, false))
        .toArray();
  }

  /** σ of the point at {@code index} of the fitted parameters, or the fixed σ. */
  static double sigmaOf(RealVector point, int index, OptionalDouble fixedSigma) {
    return fixedSigma.orElseGet(() -> point.getEntry(index));
  }

  /**
   * Keeps parameters (s, a, b[, σ]) in a form's domain: s > 0, a ≥ 0, b ≥ {@code minThird}, 0 ≤ σ ≤
   * MAX_SIGMA.
   */
  static RealVector clamp(RealVector p, double minThird) {
    RealVector q = p.copy();
    q.setEntry(0, Math.max(1e-9, q.getEntry(0)));
    q.setEntry(1, Math.max(0, q.getEntry(1)));
    q.setEntry(2, Math.max(minThird, q.getEntry(2)));
    if (q.getDimension() > 3) {
      q.setEntry(3, Math.min(MAX_SIGMA, Math.max(0, q.getEntry(3))));
    }
    return q;
  }

  /** The steps as columns: offered rps, replicas, latency ms. */
  static double[][] columns(List<RatePoint> used) {
    int n = used.size();
    double[][] c = new double[3][n];
    for (int i = 0; i < n; i++) {
      c[0][i] = used.get(i).offeredRps();
      c[1][i] = used.get(i).replicas();
      c[2][i] = used.get(i).latencyMs();
    }
    return c;
  }

  /** r = RR/C(λ), the effective load of one replica. */
  static double load(double rate, double replicas, double sigma, double theta) {
    return rate / LatencyModel.capacity(replicas, sigma, theta);
  }

  private ModelFit judge(
      LatencyModel model,
      List<RatePoint> used,
      int excluded,
      boolean sigmaFitted,
      double percentile,
      double capMs,
      List<String> notes) {
    List<Residual> residuals = new ArrayList<>(used.size());
    double mean = used.stream().mapToDouble(RatePoint::latencyMs).average().orElse(0);
    double ssRes = 0;
    double ssTot = 0;
    double maxLoad = 0;
    for (RatePoint p : used) {
      double predicted = scoredMs(model, p, capMs);
      double residual = p.latencyMs() - predicted;
      residuals.add(
          new Residual(
              p.stepIndex(), p.replicas(), p.offeredRps(), p.latencyMs(), predicted, residual));
      ssRes += residual * residual;
      ssTot += (p.latencyMs() - mean) * (p.latencyMs() - mean);
      maxLoad = Math.max(maxLoad, p.offeredRps() / model.effectiveReplicas(p.replicas()));
    }
    double r2 = ssTot == 0 ? (ssRes == 0 ? 1 : 0) : 1 - ssRes / ssTot;
    double rmse = Math.sqrt(ssRes / used.size());
    List<String> reasons = new ArrayList<>();
    if (r2 < policy.minRSquared()) {
      reasons.add(fmt("poor fit: R² %.3f < %.3f (RMSE %.2f ms)", r2, policy.minRSquared(), rmse));
    }
    reasons.addAll(implausible(model));
    if (sigmaFitted && model.sigma() >= MAX_SIGMA) {
      reasons.add(
          fmt("σ out of range: %.3f (adding replicas adds almost no capacity)", model.sigma()));
    }
    if (!sigmaFitted) {
      notes.add(
          fmt(
              "σ assumed %.3g: the steps cover one replica count, so scaling across replicas is not measured",
              model.sigma()));
    }
    String status = reasons.isEmpty() ? ModelFit.TRUSTED : ModelFit.REFUSED;
    return new ModelFit(
        status,
        form(),
        model,
        percentile,
        used.size(),
        excluded,
        sigmaFitted,
        r2,
        rmse,
        maxLoad,
        residuals,
        reasons,
        notes);
  }
}
