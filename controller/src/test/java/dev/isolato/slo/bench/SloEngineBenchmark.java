package dev.isolato.slo.bench;

import dev.isolato.calibration.CalibrationContext;
import dev.isolato.calibration.CalibrationRun;
import dev.isolato.calibration.CalibrationStep;
import dev.isolato.calibration.LatencySummary;
import dev.isolato.slo.CapacityPlan;
import dev.isolato.slo.ClassTarget;
import dev.isolato.slo.DetectionPolicy;
import dev.isolato.slo.FitPolicy;
import dev.isolato.slo.LinearCapacityPlanner;
import dev.isolato.slo.ModelCapacityPlanner;
import dev.isolato.slo.ModelFit;
import dev.isolato.slo.PlanPolicy;
import dev.isolato.slo.PlanRequest;
import dev.isolato.slo.RatePoint;
import dev.isolato.slo.SloEngine;
import dev.isolato.slo.TenantDemand;
import dev.isolato.slo.UslFitter;
import dev.isolato.slo.UslModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.ArrayRealVector;
import org.hipparchus.linear.QRDecomposition;
import org.hipparchus.linear.RealVector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The SLO engine's performance goals (issue 5), each beside a reference measured in the same run:
 * planning 10,000 tenants across 10 classes (goal ≤ 50 ms; reference: the linear baseline on the
 * same requests) and a fit on 50 steps (goal ≤ 20 ms; reference: the linear least-squares solve of
 * the same quadratic, i.e. the fit's own starting point). Run by `isolato-bench slo-engine`.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SloEngineBenchmark {
  private static final int CLASSES = 10;
  private static final int TENANTS_PER_CLASS = 1_000;
  private static final int STEPS = 50;

  private final ModelCapacityPlanner usl = new ModelCapacityPlanner(PlanPolicy.defaults());
  private final LinearCapacityPlanner linear = new LinearCapacityPlanner();
  private final UslFitter fitter = new UslFitter(FitPolicy.defaults(), DetectionPolicy.defaults());
  private final SloEngine engine = SloEngine.withDefaults();
  private List<PlanRequest> requests;
  private List<RatePoint> oneReplicaSteps;
  private List<RatePoint> twoReplicaCountSteps;
  private CalibrationRun run;

  @Setup
  public void setUp() {
    Random random = new Random(42);
    requests = new ArrayList<>(CLASSES);
    for (int c = 0; c < CLASSES; c++) {
      UslModel truth = new UslModel(5 + c, 0.01, 0.0005, 0.05);
      List<TenantDemand> tenants = new ArrayList<>(TENANTS_PER_CLASS);
      for (int t = 0; t < TENANTS_PER_CLASS; t++) {
        tenants.add(new TenantDemand("class" + c + "-tenant" + t, 0.1 + random.nextDouble()));
      }
      ModelFit fit = fitter.fit(points(truth, 1, 20 + 2 * c, random), 95);
      requests.add(
          new PlanRequest("class" + c, 95, truth.latencyMs(30, 1), 1, 10_000, 25, tenants)
              .withModel(fit));
    }
    UslModel truth = new UslModel(10, 0.02, 0.001, 0.1);
    oneReplicaSteps = points(truth, 1, 80, random);
    twoReplicaCountSteps = new ArrayList<>(points(truth, 1, 80, random).subList(0, STEPS / 2));
    twoReplicaCountSteps.addAll(points(truth, 3, 200, random).subList(0, STEPS / 2));
    List<CalibrationStep> steps = new ArrayList<>();
    for (RatePoint p : oneReplicaSteps) {
      double l = p.latencyMs();
      steps.add(
          new CalibrationStep(
              p.stepIndex(),
              p.offeredRps(),
              p.achievedRps(),
              60,
              new LatencySummary(p.count(), 0, 0.6 * l, 0.9 * l, l, 1.3 * l, 2 * l),
              Map.of()));
    }
    run =
        new CalibrationRun(
            1,
            "bench",
            "gold",
            false,
            new CalibrationContext("alone", "950m", "1900Mi", 1, List.of(), Map.of()),
            steps);
  }

  /** 50 steps from 2% to 100% of {@code maxRps}, 2% multiplicative noise. */
  private static List<RatePoint> points(
      UslModel truth, int replicas, double maxRps, Random random) {
    List<RatePoint> points = new ArrayList<>(STEPS);
    for (int i = 0; i < STEPS; i++) {
      double rate = maxRps * (i + 1) / STEPS;
      double latency = truth.latencyMs(rate, replicas) * (1 + 0.02 * random.nextGaussian());
      points.add(new RatePoint(i, replicas, rate, rate, 1600, 0, latency));
    }
    return points;
  }

  @Benchmark
  public void plan10kTenantsUsl(Blackhole bh) {
    for (PlanRequest r : requests) {
      CapacityPlan plan = usl.plan(r);
      bh.consume(plan);
    }
  }

  @Benchmark
  public void plan10kTenantsLinearReference(Blackhole bh) {
    for (PlanRequest r : requests) {
      bh.consume(linear.plan(r));
    }
  }

  @Benchmark
  public ModelFit fit50StepsUsl() {
    return fitter.fit(oneReplicaSteps, 95);
  }

  @Benchmark
  public ModelFit fit50StepsUslWithSigma() {
    return fitter.fit(twoReplicaCountSteps, 95);
  }

  @Benchmark
  public Object ingest50StepRun() {
    return engine.ingest(run, new ClassTarget("gold", 95, 75));
  }

  /** Reference: ordinary least squares of latency = c0 + c1·r + c2·r² on the same 50 steps. */
  @Benchmark
  public RealVector fit50StepsLinearLeastSquaresReference() {
    int n = oneReplicaSteps.size();
    double[][] design = new double[n][3];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      double r = oneReplicaSteps.get(i).offeredRps();
      design[i][0] = 1;
      design[i][1] = r;
      design[i][2] = r * r;
      y[i] = oneReplicaSteps.get(i).latencyMs();
    }
    return new QRDecomposition(new Array2DRowRealMatrix(design, false))
        .getSolver()
        .solve(new ArrayRealVector(y, false));
  }
}
