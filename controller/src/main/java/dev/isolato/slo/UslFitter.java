package dev.isolato.slo;

import static dev.isolato.slo.Text.fmt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.hipparchus.exception.MathRuntimeException;
import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.ArrayRealVector;
import org.hipparchus.linear.DiagonalMatrix;
import org.hipparchus.linear.QRDecomposition;
import org.hipparchus.linear.RealMatrix;
import org.hipparchus.linear.RealVector;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresBuilder;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresOptimizer;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresProblem;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LevenbergMarquardtOptimizer;
import org.hipparchus.optim.nonlinear.vector.leastsquares.MultivariateJacobianFunction;
import org.hipparchus.util.Pair;

/**
 * Fits a {@link UslModel} to calibration steps by non-linear least squares
 * (Levenberg–Marquardt, Hipparchus) on the latency at the target percentile, and decides
 * whether the fit can be trusted.
 *
 * <p>Only healthy steps are used (errors and achieved rate within the {@link DetectionPolicy}):
 * past saturation the measured percentiles describe a collapsing system, not the curve. Gross
 * outliers of a first fit are dropped and the fit repeated once (see {@link #withoutOutliers}).
 * σ (contention between replicas) is fitted only when the steps cover at least two replica
 * counts; otherwise it is fixed at {@link FitPolicy#assumedSigma()}. The starting point is the
 * linear least-squares solution for s, s·α, s·β (the model is linear in them for a fixed σ),
 * tried on a small grid of σ, so the optimiser starts next to the optimum.
 */
public final class UslFitter {
  private static final double[] SIGMA_GRID = {0, 0.02, 0.05, 0.1, 0.2, 0.4};
  private static final double MAX_SIGMA = 0.95;
  private static final int MAX_EVALUATIONS = 2_000;

  private final FitPolicy policy;
  private final DetectionPolicy health;

  public UslFitter(FitPolicy policy, DetectionPolicy health) {
    this.policy = policy;
    this.health = health;
  }

  public ModelFit fit(List<RatePoint> points, double percentile) {
    List<RatePoint> used = new ArrayList<>();
    for (RatePoint p : points) {
      if (health.healthy(p)) {
        used.add(p);
      }
    }
    int excluded = points.size() - used.size();
    TreeSet<Integer> replicaCounts = new TreeSet<>();
    TreeSet<Double> loads = new TreeSet<>();
    for (RatePoint p : used) {
      replicaCounts.add(p.replicas());
      loads.add(p.offeredRps() / p.replicas());
    }
    boolean fitSigma = replicaCounts.size() >= 2;
    int parameters = fitSigma ? 4 : 3;
    int needed = Math.max(policy.minPoints(), parameters + 2);
    List<String> reasons = new ArrayList<>();
    if (used.size() < needed) {
      reasons.add(fmt("too few points: %d healthy steps (%d excluded for errors or saturation), need >= %d",
          used.size(), excluded, needed));
    }
    if (loads.size() < 3) {
      reasons.add(fmt("too few distinct rates: %d, need >= 3 to fit a quadratic", loads.size()));
    }
    if (!reasons.isEmpty()) {
      return new ModelFit(ModelFit.REFUSED, null, percentile, used.size(), excluded, fitSigma, 0, 0, 0,
          List.of(), reasons, List.of());
    }
    UslModel model;
    List<String> notes = new ArrayList<>();
    try {
      model = toModel(optimise(used, fitSigma), fitSigma);
      List<RatePoint> inliers = withoutOutliers(model, used, needed, notes);
      if (inliers.size() < used.size()) {
        excluded += used.size() - inliers.size();
        used = inliers;
        model = toModel(optimise(used, fitSigma), fitSigma);
      }
    } catch (MathRuntimeException e) {
      return new ModelFit(ModelFit.REFUSED, null, percentile, used.size(), excluded, fitSigma, 0, 0, 0,
          List.of(), List.of("optimiser did not converge: " + e.getMessage()), List.of());
    }
    return judge(model, used, excluded, fitSigma, percentile, notes);
  }

  private UslModel toModel(double[] params, boolean fitSigma) {
    return new UslModel(params[0], params[1], params[2], fitSigma ? params[3] : policy.assumedSigma());
  }

  /**
   * Drops gross outliers of a first fit (a latency spike on an otherwise healthy step): relative
   * residuals further than max(4 robust standard deviations, 10%) from their median, at most
   * 10% of the points (at least one) and never below {@code needed} points. Each drop is noted.
   */
  private static List<RatePoint> withoutOutliers(UslModel model, List<RatePoint> used, int needed, List<String> notes) {
    int n = used.size();
    double[] rel = new double[n];
    for (int i = 0; i < n; i++) {
      RatePoint p = used.get(i);
      double predicted = model.latencyMs(p.offeredRps(), p.replicas());
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
        notes.add(fmt("step %d at %.1f rps left out as an outlier: %.1f ms is %+.0f%% off the first fit",
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

  private double[] optimise(List<RatePoint> used, boolean fitSigma) {
    int n = used.size();
    double[] rate = new double[n];
    double[] replicas = new double[n];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      rate[i] = used.get(i).offeredRps();
      replicas[i] = used.get(i).replicas();
      y[i] = used.get(i).latencyMs();
    }
    double[] start = fitSigma ? bestLinearStart(rate, replicas, y) : linearStart(rate, replicas, y, policy.assumedSigma());
    double fixedSigma = policy.assumedSigma();
    MultivariateJacobianFunction model = point -> {
      double s = point.getEntry(0);
      double a = point.getEntry(1);
      double b = point.getEntry(2);
      double sigma = fitSigma ? point.getEntry(3) : fixedSigma;
      RealVector value = new ArrayRealVector(n);
      RealMatrix jacobian = new Array2DRowRealMatrix(n, fitSigma ? 4 : 3);
      for (int i = 0; i < n; i++) {
        double lambda = replicas[i];
        double u = rate[i] * (1 + sigma * (lambda - 1)) / lambda;
        double shape = 1 + a * (u - 1) + b * u * (u - 1);
        value.setEntry(i, s * shape);
        jacobian.setEntry(i, 0, shape);
        jacobian.setEntry(i, 1, s * (u - 1));
        jacobian.setEntry(i, 2, s * u * (u - 1));
        if (fitSigma) {
          jacobian.setEntry(i, 3, s * (a + b * (2 * u - 1)) * rate[i] * (lambda - 1) / lambda);
        }
      }
      return new Pair<>(value, jacobian);
    };
    LeastSquaresProblem problem = new LeastSquaresBuilder()
        .start(start)
        .model(model)
        .target(y)
        .weight(relativeWeights(y))
        .parameterValidator(UslFitter::clamp)
        .maxEvaluations(MAX_EVALUATIONS)
        .maxIterations(MAX_EVALUATIONS)
        .build();
    LeastSquaresOptimizer.Optimum optimum = new LevenbergMarquardtOptimizer().optimize(problem);
    return clamp(optimum.getPoint()).toArray();
  }

  /**
   * Weights 1/y²: latency noise is roughly proportional to latency, so this minimises relative
   * residuals and keeps the low-load steps (which pin down s) from being drowned by the
   * high-load ones.
   */
  private static RealMatrix relativeWeights(double[] y) {
    double[] w = new double[y.length];
    for (int i = 0; i < y.length; i++) {
      w[i] = 1 / Math.max(y[i] * y[i], 1e-12);
    }
    return new DiagonalMatrix(w, false);
  }

  /** Keeps the parameters in the model's domain: s > 0, α ≥ 0, β ≥ 0, 0 ≤ σ ≤ MAX_SIGMA. */
  private static RealVector clamp(RealVector p) {
    RealVector q = p.copy();
    q.setEntry(0, Math.max(1e-9, q.getEntry(0)));
    q.setEntry(1, Math.max(0, q.getEntry(1)));
    q.setEntry(2, Math.max(0, q.getEntry(2)));
    if (q.getDimension() > 3) {
      q.setEntry(3, Math.min(MAX_SIGMA, Math.max(0, q.getEntry(3))));
    }
    return q;
  }

  private static double[] bestLinearStart(double[] rate, double[] replicas, double[] y) {
    double[] best = null;
    double bestSse = Double.POSITIVE_INFINITY;
    for (double sigma : SIGMA_GRID) {
      double[] candidate = linearStart(rate, replicas, y, sigma);
      UslModel m = new UslModel(candidate[0], candidate[1], candidate[2], sigma);
      double sse = 0;
      for (int i = 0; i < y.length; i++) {
        double r = y[i] - m.latencyMs(rate[i], (int) replicas[i]);
        sse += r * r;
      }
      if (sse < bestSse) {
        bestSse = sse;
        best = new double[] {candidate[0], candidate[1], candidate[2], sigma};
      }
    }
    return best;
  }

  /**
   * Least squares of y = c0 + c1·(u − 1) + c2·u·(u − 1) for a fixed σ, with the relative
   * weights of the non-linear fit (each row divided by y), mapped to
   * (s, α, β) = (c0, c1/c0, c2/c0) and clamped into the model's domain.
   */
  private static double[] linearStart(double[] rate, double[] replicas, double[] y, double sigma) {
    int n = y.length;
    double[][] design = new double[n][3];
    double[] ones = new double[n];
    double minY = Double.POSITIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      double u = rate[i] * (1 + sigma * (replicas[i] - 1)) / replicas[i];
      double w = 1 / Math.max(y[i], 1e-6);
      design[i][0] = w;
      design[i][1] = w * (u - 1);
      design[i][2] = w * u * (u - 1);
      ones[i] = 1;
      minY = Math.min(minY, y[i]);
    }
    RealVector c = new QRDecomposition(new Array2DRowRealMatrix(design, false)).getSolver()
        .solve(new ArrayRealVector(ones, false));
    double s = c.getEntry(0) > 0 ? c.getEntry(0) : Math.max(minY, 1e-3);
    return new double[] {s, Math.max(0, c.getEntry(1) / s), Math.max(0, c.getEntry(2) / s)};
  }

  private ModelFit judge(
      UslModel model, List<RatePoint> used, int excluded, boolean sigmaFitted, double percentile, List<String> notes) {
    List<Residual> residuals = new ArrayList<>(used.size());
    double mean = used.stream().mapToDouble(RatePoint::latencyMs).average().orElse(0);
    double ssRes = 0;
    double ssTot = 0;
    double maxLoad = 0;
    for (RatePoint p : used) {
      double predicted = model.latencyMs(p.offeredRps(), p.replicas());
      double residual = p.latencyMs() - predicted;
      residuals.add(new Residual(p.stepIndex(), p.replicas(), p.offeredRps(), p.latencyMs(), predicted, residual));
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
    if (model.alpha() >= policy.maxAlpha()) {
      reasons.add(fmt("α out of range: %.4g >= %.4g per rps", model.alpha(), policy.maxAlpha()));
    }
    if (model.beta() >= policy.maxBeta()) {
      reasons.add(fmt("β out of range: %.4g >= %.4g per rps²", model.beta(), policy.maxBeta()));
    }
    if (model.alpha() == 0 && model.beta() == 0) {
      reasons.add("α = β = 0: latency does not grow with load in the measured range, so no cut-off can be predicted");
    }
    if (sigmaFitted && model.sigma() >= MAX_SIGMA) {
      reasons.add(fmt("σ out of range: %.3f (adding replicas adds almost no capacity)", model.sigma()));
    }
    if (!sigmaFitted) {
      notes.add(fmt("σ assumed %.3g: the steps cover one replica count, so scaling across replicas is not measured",
          model.sigma()));
    }
    String status = reasons.isEmpty() ? ModelFit.TRUSTED : ModelFit.REFUSED;
    return new ModelFit(status, model, percentile, used.size(), excluded, sigmaFitted, r2, rmse, maxLoad,
        residuals, reasons, notes);
  }
}
