package dev.isolato.tenancy;

import dev.isolato.calibration.CalibrationStep;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the controller and calibration know about a class. Two writers share it: the class
 * reconciler (server-side apply, field manager {@code isolato}: observedGeneration, plan, tenants,
 * conditions) and {@code POST /api/v1/calibrations} (JSON merge patch: the calibration fields
 * below). Each leaves the other's fields out of what it writes.
 */
public class SloClassStatus {
  public Long observedGeneration;

  /**
   * Measured cut-off points, oldest first: the last {@value
   * CalibrationStatusMapper#MAX_CUTOFFS_PER_CONTEXT} per context label, at most {@value
   * CalibrationStatusMapper#MAX_CONTEXTS} labels.
   */
  public List<CutoffPoint> cutoffs = new ArrayList<>();

  /** Parameters of the current fit's latency model; absent until a fit produced a model. */
  public Model model;

  /**
   * Quality and trust of the current fit (see {@link Fit}); the planner uses the model only when
   * trusted.
   */
  public Fit fit;

  /**
   * Measured cut-off of one pod (req/s), the linear baseline's unit: from the newest single-pod
   * cut-off, else the newest cut-off divided by its pods. Absent: the spec's declared value is
   * used.
   */
  public Double perPodCutoffRps;

  /** The runs kept to refit the model: the newest per (context, replicas), bounded. */
  public List<StoredRun> calibrationRuns = new ArrayList<>();

  /** When the newest calibration was stored (RFC 3339) and its run id. */
  public String calibratedAt;

  public String lastRunId;

  /** The plan the controller applied last for the class's shared pool. */
  public Plan plan;

  public Integer tenants;

  /**
   * The capacity held against live traffic (docs/calibration.md, "Continuous verification"),
   * written by the verification loop (field manager {@code isolato-capacity}); absent while no
   * Prometheus is configured or no window was measured.
   */
  public Capacity capacity;

  public List<Condition> conditions = new ArrayList<>();

  /**
   * The latest in-context calibration (issue 34 item 1), written by the in-context calibration loop
   * (field manager {@code isolato-calibration}).
   */
  public InContext inContext;

  /**
   * Where the class's pool runs and the cut-off measured there (issue 34 item 4), written by the
   * context watch (field manager {@code isolato-context}); absent until it looked.
   */
  public Context context;

  /** The contexts the pool runs in and the figure the planner uses for them. */
  public static class Context {
    public static final String MATCHED = "Matched";
    public static final String NO_MATCH = "NoMatch";
    public static final String UNPLACED = "Unplaced";

    /** The context label of each node holding a serving pod of the pool, by node. */
    public Map<String, String> nodes;

    /**
     * {@code Matched} (a figure measured in every context of the pool), {@code NoMatch} (the
     * conservative fallback; a recalibration is due) or {@code Unplaced} (no pod placed yet).
     */
    public String match;

    /** The per-pod cut-off the planner uses (req/s); absent when {@code Unplaced}. */
    public Double perPodCutoffRps;

    /** The contexts of the figures used ({@code declared}: the declared figure). */
    public List<String> measuredIn;

    /** The pool's contexts with no figure measured in them. */
    public List<String> unmatched;

    /** Whether the figures of each matched context agree (the stability analysis). */
    public Boolean stable;

    public List<String> notes;

    /** Whether a calibration where the pool runs is due (no figure matches). */
    public Boolean recalibrationDue;

    /** Since when the pool's contexts are what they are (RFC 3339), and what changed then. */
    public String since;

    public List<String> changes;

    /** The calibration and declared figure the choice was made against (a guard for readers). */
    public String calibratedAt;

    public Double declaredPerPodRps;

    /** The pod size (millicores) the figure is for: the size the pools run. */
    public Long podCpuMillis;
  }

  /**
   * One in-context calibration: a temporary extra replica of the class on a real node, out of the
   * tenants' Service, ramped by an in-cluster open-loop generator.
   */
  public static class InContext {
    public String id;

    /**
     * {@code Pending} (replica starting), {@code Running} (generator), {@code Succeeded}, {@code
     * Failed}.
     */
    public String phase;

    /** Why it started: {@code api} or the automatic reason. */
    public String reason;

    public String message;
    public String startedAt;
    public String finishedAt;

    /** The generator's hard bound (RFC 3339): past it, the calibration fails. */
    public String deadline;

    public Long podCpuMillis;
    public List<Double> rates = new ArrayList<>();
    public Integer requestsPerStep;

    /**
     * The second pass's steps (its first re-measures the ramp's held rate), inside the ramp's
     * bracket or above a ramp that never failed; null: none, none yet, or discarded.
     */
    public List<Double> fineRates;

    /** What the second pass did: narrowed, extended, or why it was discarded. */
    public String refinement;

    /** Where it measured: node, CPU, neighbour classes and their load, node CPU busy. */
    public String node;

    public String context;
    public String cpuModel;
    public Double cpuMhz;
    public Map<String, Integer> neighbourPods;
    public List<String> ioNeighbours;
    public Map<String, Double> neighbourRps;
    public Double nodeBusyPct;

    /** The generator's own CPU (% of one CPU) and the rate it achieved (req/s, mean of steps). */
    public Double generatorCpuPct;

    public Double achievedRps;

    /** The per-pod cut-off found; null while running or when the lowest step already failed. */
    public Double perPodCutoffRps;

    public String runId;
  }

  /** Calibrated, live and effective per-pod cut-offs, and whether the SLO holds now. */
  public static class Capacity {
    /** The per-pod cut-off calibrated (measured) or declared, req/s. */
    public Double calibratedPerPodRps;

    /** {@code measured} or {@code declared}: where {@link #calibratedPerPodRps} comes from. */
    public String calibratedSource;

    /** The conservative live estimate; absent until a pool served traffic. */
    public Live live;

    /**
     * The per-pod cut-off the planner, the autoscaler threshold and admission use: the calibrated
     * one unless sustained live evidence lowered it.
     */
    public Double effectivePerPodRps;

    /** Since when live evidence holds the effective cut-off below the calibrated one. */
    public String driftSince;

    /** Whether the SLO holds on live traffic (k of n windows, with hysteresis). */
    public Boolean sloHeld;

    public String sloHeldSince;

    /** The latest window: latency at the class's percentile (ms), per-pod rate, pods. */
    public Double measuredLatencyMs;

    public Double targetMs;
    public Double perPodRps;
    public Integer pods;

    /**
     * The stability analysis of the live estimate against the calibrated context: deviation (%),
     * whether within the policy's limit, and why not.
     */
    public Double liveDeviationPct;

    public Boolean contextStable;
    public List<String> stabilityNotes = new ArrayList<>();

    /** When the loop wrote this (RFC 3339). */
    public String verifiedAt;
  }

  /** A live estimate of one pod's cut-off. */
  public static class Live {
    public double perPodRps;
    public double errorRps;

    /** {@code holding} (a lower bound), {@code bracket}, {@code refit} or {@code saturation}. */
    public String basis;

    public int windows;
    public Double lowestFailingRps;
  }

  /** Highest request rate at which the latency target held, for a pool size and context. */
  public static class CutoffPoint {
    public int pods;
    public String context;
    public double rps;

    /** rps / pods. */
    public Double perPodRps;

    /** {@code found}, or {@code not-reached} (the SLO held at every step: a lower bound). */
    public String status;

    public String runId;
    public Double percentile;
    public Double targetMs;
    public String measuredAt;

    /**
     * CPU of the pods measured (millicores, from the run's context.podCpu); absent: not recorded.
     */
    public Long podCpuMillis;

    /** The node an in-context calibration measured on; absent for a posted run. */
    public String node;
  }

  /**
   * The fitted latency model (docs/slo-engine.md), r = RR/C(λ): form {@code usl} (or absent),
   * latency = s·(1 + α(r−1) + β·r(r−1)); form {@code queue}, latency = s + k·ρ/(1−ρ), ρ = r/μ.
   */
  public static class Model {
    /**
     * {@code usl} or {@code queue}; absent means {@code usl} (status written before the queue
     * form).
     */
    public String form;

    public double scaleMs;
    public double alpha;
    public double beta;
    public double sigma;

    /**
     * θ, the capacity a random split of the arrivals costs each replica beyond the first; absent
     * (0) in status written before it.
     */
    public double theta;

    /** k, queue form only. */
    public Double queueMs;

    /** μ, the per-replica saturation rate, queue form only. */
    public Double capacityRps;
  }

  /** A fit of the model over the stored runs of one context. */
  public static class Fit {
    /** {@code trusted} or {@code refused}. */
    public String status;

    public String context;
    public double percentile;
    public int pointsUsed;
    public int pointsExcluded;
    public boolean sigmaFitted;
    public double rSquared;
    public double rmseMs;
    public double maxMeasuredLoadRps;
    public List<String> runIds = new ArrayList<>();
    public List<Integer> replicaCounts = new ArrayList<>();
    public List<String> reasons = new ArrayList<>();
    public List<String> notes = new ArrayList<>();
    public String fittedAt;

    /** CPU of the pods of the runs fitted (millicores); absent: not recorded. */
    public Long podCpuMillis;
  }

  /** A calibration run reduced to what the fitter needs: its steps without per-tenant summaries. */
  public static class StoredRun {
    public String runId;
    public String context;
    public int replicas;
    public boolean partial;
    public String storedAt;

    /** CPU of the pods measured (millicores); absent: not recorded. */
    public Long podCpuMillis;

    public List<CalibrationStep> steps = new ArrayList<>();
  }

  /** A capacity plan as shown to users. */
  public static class Plan {
    public int replicas;

    /**
     * The per-pod cut-off the plan rests on (req/s): the measured one after a calibration, else the
     * declared one.
     */
    public double perPodCutoffRps;

    public double capacityRps;
    public double committedRps;
    public String method;
    public List<String> explanation = new ArrayList<>();

    /**
     * The pod CPU the pools run: the size chosen among spec.resources.cpuCandidates, else
     * spec.resources.cpu.
     */
    public String podCpu;
  }
}
