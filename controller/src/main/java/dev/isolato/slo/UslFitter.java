package dev.isolato.slo;

import static dev.isolato.slo.Text.fmt;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.ArrayRealVector;
import org.hipparchus.linear.DiagonalMatrix;
import org.hipparchus.linear.RealMatrix;
import org.hipparchus.linear.RealVector;
import org.hipparchus.optim.nonlinear.vector.leastsquares.MultivariateJacobianFunction;
import org.hipparchus.util.Pair;

/**
 * Fits a {@link UslModel} to calibration steps by non-linear least squares (Levenberg–Marquardt,
 * Hipparchus) on the latency at the target percentile, with relative weights; which steps, outliers
 * and trust are {@link ModelFitter}'s. The starting point is the linear least-squares solution for
 * s, s·α, s·β (the model is linear in them for a fixed σ), tried on a small grid of σ, so the
 * optimiser starts next to the optimum.
 */
public final class UslFitter extends ModelFitter {
  public UslFitter(FitPolicy policy, DetectionPolicy health) {
    super(policy, health);
  }

  @Override
  String form() {
    return UslModel.FORM;
  }

  @Override
  double scoredMs(LatencyModel model, RatePoint p, double capMs) {
    return model.latencyMs(p.offeredRps(), p.replicas());
  }

  @Override
  List<String> implausible(LatencyModel fitted) {
    UslModel model = (UslModel) fitted;
    List<String> reasons = new ArrayList<>();
    if (model.alpha() >= policy.maxAlpha()) {
      reasons.add(fmt("α out of range: %.4g >= %.4g per rps", model.alpha(), policy.maxAlpha()));
    }
    if (model.beta() >= policy.maxBeta()) {
      reasons.add(fmt("β out of range: %.4g >= %.4g per rps²", model.beta(), policy.maxBeta()));
    }
    if (model.alpha() == 0 && model.beta() == 0) {
      reasons.add(
          "α = β = 0: latency does not grow with load in the measured range, so no cut-off can be predicted");
    }
    return reasons;
  }

  @Override
  UslModel optimise(List<RatePoint> used, OptionalDouble fixedSigma, double theta, double capMs) {
    boolean fitSigma = fixedSigma.isEmpty();
    int n = used.size();
    double[][] columns = columns(used);
    double[] rate = columns[0];
    double[] replicas = columns[1];
    double[] y = columns[2];
    double[] start =
        fitSigma
            ? bestLinearStart(rate, replicas, y, theta)
            : linearStart(rate, replicas, y, fixedSigma.getAsDouble(), theta);
    MultivariateJacobianFunction model =
        point -> {
          double s = point.getEntry(0);
          double a = point.getEntry(1);
          double b = point.getEntry(2);
          double sigma = sigmaOf(point, 3, fixedSigma);
          RealVector value = new ArrayRealVector(n);
          RealMatrix jacobian = new Array2DRowRealMatrix(n, fitSigma ? 4 : 3);
          for (int i = 0; i < n; i++) {
            double lambda = replicas[i];
            double u = load(rate[i], lambda, sigma, theta);
            double shape = 1 + a * (u - 1) + b * u * (u - 1);
            value.setEntry(i, s * shape);
            jacobian.setEntry(i, 0, shape);
            jacobian.setEntry(i, 1, s * (u - 1));
            jacobian.setEntry(i, 2, s * u * (u - 1));
            if (fitSigma) {
              jacobian.setEntry(
                  i,
                  3,
                  s
                      * (a + b * (2 * u - 1))
                      * rate[i]
                      * (lambda - 1)
                      / LatencyModel.capacity(lambda, 0, theta));
            }
          }
          return new Pair<>(value, jacobian);
        };
    double[] p = leastSquares(start, model, y, relativeWeights(y), v -> clamp(v, 0));
    return new UslModel(p[0], p[1], p[2], fitSigma ? p[3] : fixedSigma.getAsDouble(), theta);
  }

  /**
   * Weights 1/y²: latency noise is roughly proportional to latency, so this minimises relative
   * residuals and keeps the low-load steps (which pin down s) from being drowned by the high-load
   * ones.
   */
  private static RealMatrix relativeWeights(double[] y) {
    double[] w = new double[y.length];
    for (int i = 0; i < y.length; i++) {
      w[i] = 1 / Math.max(y[i] * y[i], 1e-12);
    }
    return new DiagonalMatrix(w, false);
  }

  private static double[] bestLinearStart(
      double[] rate, double[] replicas, double[] y, double theta) {
    double[] best = null;
    double bestSse = Double.POSITIVE_INFINITY;
    for (double sigma : SIGMA_GRID) {
      double[] candidate = linearStart(rate, replicas, y, sigma, theta);
      UslModel m = new UslModel(candidate[0], candidate[1], candidate[2], sigma, theta);
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
   * Least squares of y = c0 + c1·(u − 1) + c2·u·(u − 1) for a fixed σ, with the relative weights of
   * the non-linear fit (each row divided by y), mapped to (s, α, β) = (c0, c1/c0, c2/c0) and
   * clamped into the model's domain.
   */
  private static double[] linearStart(
      double[] rate, double[] replicas, double[] y, double sigma, double theta) {
    int n = y.length;
    double[][] design = new double[n][3];
    double[] ones = new double[n];
    double minY = Double.POSITIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      double u = load(rate[i], replicas[i], sigma, theta);
      double w = 1 / Math.max(y[i], 1e-6);
      design[i][0] = w;
      design[i][1] = w * (u - 1);
      design[i][2] = w * u * (u - 1);
      ones[i] = 1;
      minY = Math.min(minY, y[i]);
    }
    double[] c = linearLeastSquares(design, ones);
    double s = c[0] > 0 ? c[0] : Math.max(minY, 1e-3);
    return new double[] {s, Math.max(0, c[1] / s), Math.max(0, c[2] / s)};
  }
}
