package dev.isolato.slo;

import java.util.Arrays;
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
 * Fits a {@link QueueModel} (s, k, μ and σ when fitted) to calibration steps by Levenberg–Marquardt
 * on log latency: a knee spans a 30× range of latency, and least squares in ms would fit the few
 * collapsed steps and ignore the flat part that pins s and the bend.
 *
 * <p>A step the model puts at or past saturation (ρ ≥ 1, latency +∞) is scored at {@code capMs},
 * the highest latency among the steps used: a step past capacity that still delivered its rate
 * measures the backlog built during the step, not a steady state, so all it says is "very slow".
 * The model is fitted as min(s + k·ρ/(1 − ρ), cap). Steps whose achieved rate fell behind are not
 * used at all ({@link ModelFitter}).
 *
 * <p>The starting point comes from a grid of μ (each measured per-replica load times 1.0001 … 5, so
 * the knee can sit just above the last flat step) and σ, with s and k solved by linear least
 * squares (relative weights) for each; the best by log residuals is refined. Where the steps only
 * bracket the knee (equally good fits for any μ between the last step that held its latency and the
 * first that collapsed), the lowest such μ is taken: the capacity the data show, not more.
 */
public final class QueueFitter extends ModelFitter {
  private static final double[] CAPACITY_FACTORS = {1.0001, 1.01, 1.05, 1.1, 1.25, 1.5, 2, 3, 5};

  public QueueFitter(FitPolicy policy, DetectionPolicy health) {
    super(policy, health);
  }

  @Override
  String form() {
    return QueueModel.FORM;
  }

  @Override
  double scoredMs(LatencyModel model, RatePoint p, double capMs) {
    return Math.min(model.latencyMs(p.offeredRps(), p.replicas()), capMs);
  }

  @Override
  List<String> implausible(LatencyModel model) {
    return List.of();
  }

  @Override
  QueueModel optimise(List<RatePoint> used, OptionalDouble fixedSigma, double theta, double capMs) {
    boolean fitSigma = fixedSigma.isEmpty();
    int n = used.size();
    double[][] columns = columns(used);
    double[] rate = columns[0];
    double[] replicas = columns[1];
    double[] logY = Arrays.stream(columns[2]).map(y -> Math.log(Math.max(y, 1e-9))).toArray();
    double[] grid =
        start(
            rate,
            replicas,
            used,
            fitSigma ? SIGMA_GRID : new double[] {fixedSigma.getAsDouble()},
            theta,
            capMs);
    double[] start = fitSigma ? grid : Arrays.copyOf(grid, 3);
    MultivariateJacobianFunction model =
        point -> {
          double s = point.getEntry(0);
          double k = point.getEntry(1);
          double mu = point.getEntry(2);
          double sigma = sigmaOf(point, 3, fixedSigma);
          RealVector value = new ArrayRealVector(n);
          RealMatrix jacobian = new Array2DRowRealMatrix(n, fitSigma ? 4 : 3);
          for (int i = 0; i < n; i++) {
            double lambda = replicas[i];
            double rho = load(rate[i], lambda, sigma, theta) / mu;
            double latency = rho >= 1 ? Double.POSITIVE_INFINITY : s + k * rho / (1 - rho);
            if (latency >= capMs) {
              value.setEntry(i, Math.log(capMs));
              continue; // flat at the cap: no gradient
            }
            value.setEntry(i, Math.log(latency));
            double dLatencyDrho = k / ((1 - rho) * (1 - rho));
            jacobian.setEntry(i, 0, 1 / latency);
            jacobian.setEntry(i, 1, rho / (1 - rho) / latency);
            jacobian.setEntry(i, 2, -dLatencyDrho * rho / mu / latency);
            if (fitSigma) {
              jacobian.setEntry(
                  i,
                  3,
                  dLatencyDrho
                      * rate[i]
                      * (lambda - 1)
                      / LatencyModel.capacity(lambda, 0, theta)
                      / mu
                      / latency);
            }
          }
          return new Pair<>(value, jacobian);
        };
    double[] ones = new double[n];
    Arrays.fill(ones, 1);
    double[] p =
        leastSquares(start, model, logY, new DiagonalMatrix(ones, false), v -> clamp(v, 1e-9));
    return new QueueModel(p[0], p[1], p[2], fitSigma ? p[3] : fixedSigma.getAsDouble(), theta);
  }

  /** The best grid point (s, k, μ, σ) by squared log residuals of the capped model. */
  private static double[] start(
      double[] rate,
      double[] replicas,
      List<RatePoint> used,
      double[] sigmas,
      double theta,
      double capMs) {
    double[] best = null;
    double bestSse = Double.POSITIVE_INFINITY;
    for (double sigma : sigmas) {
      for (int i = 0; i < rate.length; i++) {
        for (double factor : CAPACITY_FACTORS) {
          double mu = factor * load(rate[i], replicas[i], sigma, theta);
          double[] sk = linearStart(rate, replicas, used, sigma, theta, mu, capMs);
          QueueModel m = new QueueModel(sk[0], sk[1], mu, sigma, theta);
          double sse = 0;
          for (RatePoint p : used) {
            double r =
                Math.log(
                    Math.min(m.latencyMs(p.offeredRps(), p.replicas()), capMs) / p.latencyMs());
            sse += r * r;
          }
          boolean tie = best != null && Math.abs(sse - bestSse) <= 1e-9 * bestSse;
          if (tie ? mu < best[2] : sse < bestSse) {
            bestSse = Math.min(sse, bestSse);
            best = new double[] {sk[0], sk[1], mu, sigma};
          }
        }
      }
    }
    return best;
  }

  /**
   * s and k for fixed μ, σ and θ: least squares of y = s + k·ρ/(1 − ρ) with relative weights over
   * the steps below saturation, clamped into the model's domain (s falls back to the lowest latency
   * when the solution is not positive).
   */
  private static double[] linearStart(
      double[] rate,
      double[] replicas,
      List<RatePoint> used,
      double sigma,
      double theta,
      double mu,
      double capMs) {
    int n = rate.length;
    double[][] design = new double[n][2];
    double[] ones = new double[n];
    double minY = Double.POSITIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      double y = Math.max(used.get(i).latencyMs(), 1e-6);
      minY = Math.min(minY, y);
      double rho = load(rate[i], replicas[i], sigma, theta) / mu;
      if (rho < 1 && y < capMs) {
        design[i][0] = 1 / y;
        design[i][1] = rho / (1 - rho) / y;
        ones[i] = 1;
      }
    }
    double[] c;
    try {
      c = linearLeastSquares(design, ones);
    } catch (RuntimeException singular) {
      c = new double[] {minY, 0};
    }
    double s = c[0] > 0 ? c[0] : minY;
    return new double[] {s, Math.max(0, c[1])};
  }
}
