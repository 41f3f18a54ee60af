package dev.isolato.tenancy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.isolato.calibration.CalibrationContext;
import dev.isolato.calibration.CalibrationRun;
import dev.isolato.calibration.CalibrationStep;
import dev.isolato.slo.CalibrationOutcome;
import dev.isolato.slo.ClassTarget;
import dev.isolato.slo.CutoffResult;
import dev.isolato.slo.LatencyModel;
import dev.isolato.slo.ModelFit;
import dev.isolato.slo.PodSizing;
import dev.isolato.slo.QueueModel;
import dev.isolato.slo.UslModel;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Pure mapping between the SLO engine's records and the calibration part of a {@link
 * SloClassStatus}, with the bounds that keep the status small (the API server is the only store,
 * and an object must stay far below etcd's 1.5 MB limit).
 */
public final class CalibrationStatusMapper {
  /** Recent cut-offs kept per context label. */
  public static final int MAX_CUTOFFS_PER_CONTEXT = 20;

  /** Context labels with cut-offs kept; the label whose newest cut-off is oldest goes first. */
  public static final int MAX_CONTEXTS = 10;

  /** Runs kept to refit (one per context and replica count); the oldest goes first. */
  public static final int MAX_STORED_RUNS = 10;

  /** Steps of a run that can be stored (a larger run is refused by the API). */
  public static final int MAX_STEPS = 200;

  /**
   * Leaves null fields of the status objects out; a null top-level field (e.g. no model) deletes
   * it.
   */
  private static final ObjectMapper PATCH_JSON =
      new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);

  private CalibrationStatusMapper() {}

  /** The class's latency target as the engine wants it. */
  public static ClassTarget target(SloClass cls) {
    SloClassSpec s = cls.getSpec();
    return new ClassTarget(cls.getMetadata().getName(), s.latency.percentile, s.latency.targetMs);
  }

  /**
   * The stored runs a new run is fitted with: those of the same context at other replica counts,
   * then the new run (which replaces a stored run of its context and replica count).
   */
  public static List<StoredRunRef> runsForFit(SloClassStatus status, CalibrationRun run) {
    List<StoredRunRef> runs = new ArrayList<>();
    Long size = podCpuMillis(run);
    for (SloClassStatus.StoredRun s : storedRuns(status)) {
      if (Objects.equals(s.context, run.context().label())
          && s.replicas != run.context().replicas()
          && sameSize(s.podCpuMillis, size)) {
        runs.add(new StoredRunRef(s.runId, s.replicas, toRun(s, run.sloClass())));
      }
    }
    runs.add(new StoredRunRef(run.runId(), run.context().replicas(), run));
    runs.sort(Comparator.comparingInt(StoredRunRef::replicas));
    return runs;
  }

  /** A run of {@link #runsForFit}, with what the fit's status names it by. */
  public record StoredRunRef(String runId, int replicas, CalibrationRun run) {}

  /**
   * The calibration fields of the status after storing {@code outcome} (of {@code run}) and the
   * joint {@code fit} over {@code fitRuns}; {@code current} is left unchanged.
   */
  public static SloClassStatus record(
      SloClassStatus current,
      CalibrationRun run,
      CalibrationOutcome outcome,
      ModelFit fit,
      List<StoredRunRef> fitRuns,
      Instant now) {
    SloClassStatus prev = current == null ? new SloClassStatus() : current;
    String at = now.toString();
    SloClassStatus next = new SloClassStatus();
    SloClassStatus.CutoffPoint point = cutoffPoint(outcome, podCpuMillis(run), at);
    if (point != null && run.context().more() != null) {
      // an in-context run names its node: what the node's CPU is becomes known from it
      Object node = run.context().more().get("node");
      point.node = node instanceof String n ? n : null;
    }
    next.cutoffs = withCutoff(prev.cutoffs, point);
    next.perPodCutoffRps = measuredPerPod(next.cutoffs);
    next.calibrationRuns = withRun(storedRuns(prev), toStored(run, at));
    next.fit = toStatus(fit, run.context().label(), fitRuns, at);
    next.fit.podCpuMillis = podCpuMillis(run);
    next.model = toStatus(fit.model());
    next.calibratedAt = at;
    next.lastRunId = run.runId();
    return next;
  }

  /**
   * The JSON merge patch body that writes the calibration fields of {@code next}, guarded by {@code
   * resourceVersion} (the API server answers 409 when the class changed meanwhile). Other status
   * fields (the reconciler's) are not touched.
   */
  public static String mergePatch(SloClassStatus next, String resourceVersion) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("cutoffs", next.cutoffs);
    fields.put("perPodCutoffRps", next.perPodCutoffRps);
    fields.put("calibrationRuns", next.calibrationRuns);
    fields.put("fit", next.fit);
    fields.put("model", next.model);
    fields.put("calibratedAt", next.calibratedAt);
    fields.put("lastRunId", next.lastRunId);
    ObjectNode patch = PATCH_JSON.createObjectNode();
    patch.putObject("metadata").put("resourceVersion", resourceVersion);
    ObjectNode status = patch.putObject("status");
    fields.forEach((name, value) -> status.set(name, PATCH_JSON.valueToTree(value)));
    return patch.toString();
  }

  /**
   * The stored fit as the planner wants it; null when none, or when the stored values are unusable.
   */
  public static ModelFit modelFit(SloClassStatus status) {
    if (status == null || status.fit == null) {
      return null;
    }
    SloClassStatus.Fit f = status.fit;
    LatencyModel model;
    try {
      model = toModel(status.model);
    } catch (IllegalArgumentException e) {
      return new ModelFit(
          ModelFit.REFUSED,
          formOf(status.model),
          null,
          f.percentile,
          f.pointsUsed,
          f.pointsExcluded,
          f.sigmaFitted,
          f.rSquared,
          f.rmseMs,
          f.maxMeasuredLoadRps,
          List.of(),
          List.of("stored model is invalid: " + e.getMessage()),
          List.of());
    }
    String trust =
        ModelFit.TRUSTED.equals(f.status) && model != null ? ModelFit.TRUSTED : ModelFit.REFUSED;
    List<String> reasons = new ArrayList<>(nonNull(f.reasons));
    if (ModelFit.TRUSTED.equals(f.status) && model == null) {
      reasons.add("the stored fit has no model parameters");
    }
    return new ModelFit(
        trust,
        formOf(status.model),
        model,
        f.percentile,
        f.pointsUsed,
        f.pointsExcluded,
        f.sigmaFitted,
        f.rSquared,
        f.rmseMs,
        f.maxMeasuredLoadRps,
        List.of(),
        reasons,
        nonNull(f.notes));
  }

  /**
   * The per-pod cut-off the plan, the autoscaler threshold and admission use: the calibrated one
   * ({@link #calibratedPerPodCutoff}), or the live limit when the verification loop lowered it
   * ({@link #liveLimit}).
   */
  public static double perPodCutoff(SloClass c) {
    return liveLimit(c).orElse(calibratedPerPodCutoff(c));
  }

  /**
   * The figure measured where the pool runs (the context watch's choice, docs/calibration.md
   * "Contexts"), else measured when a calibration stored one, else declared.
   */
  public static double calibratedPerPodCutoff(SloClass c) {
    Double inContext = contextCutoff(c);
    if (inContext != null) {
      return inContext;
    }
    Double measured = c.getStatus() == null ? null : c.getStatus().perPodCutoffRps;
    return measured != null && measured > 0 ? measured : c.getSpec().perPodCutoffRps;
  }

  /**
   * The figure the context watch chose for the contexts the pool runs in; null when it chose none
   * (no pod placed yet) or chose against another calibration or declared figure than today's.
   */
  public static Double contextCutoff(SloClass c) {
    SloClassStatus st = c.getStatus();
    SloClassStatus.Context x = st == null ? null : st.context;
    if (x == null
        || x.perPodCutoffRps == null
        || !(x.perPodCutoffRps > 0)
        || !Objects.equals(x.calibratedAt, st.calibratedAt)
        || x.declaredPerPodRps == null
        || x.declaredPerPodRps != c.getSpec().perPodCutoffRps) {
      return null;
    }
    return x.perPodCutoffRps;
  }

  /**
   * Whether the stored model may guide the plan where the pool runs: it was fitted in a context the
   * context watch matched, or the pool has no context yet.
   */
  public static boolean fitHoldsHere(SloClass c) {
    SloClassStatus st = c.getStatus();
    if (contextCutoff(c) == null || st.fit == null) {
      return true;
    }
    return st.context.measuredIn != null
        && st.context.measuredIn.contains(st.fit.context)
        && SloClassStatus.Context.MATCHED.equals(st.context.match);
  }

  /**
   * The effective cut-off live evidence lowered below the calibrated one; empty without drift, and
   * when it was found against another calibrated figure than today's (a calibration or spec change
   * the loop has yet to see replaces it).
   */
  public static java.util.OptionalDouble liveLimit(SloClass c) {
    SloClassStatus.Capacity cap = c.getStatus() == null ? null : c.getStatus().capacity;
    double calibrated = calibratedPerPodCutoff(c);
    if (cap == null
        || cap.effectivePerPodRps == null
        || cap.calibratedPerPodRps == null
        || cap.calibratedPerPodRps != calibrated
        || !(cap.effectivePerPodRps > 0 && cap.effectivePerPodRps < calibrated)) {
      return java.util.OptionalDouble.empty();
    }
    return java.util.OptionalDouble.of(cap.effectivePerPodRps);
  }

  /** Whether the per-pod cut-off of {@link #perPodCutoff} was measured. */
  public static boolean perPodCutoffMeasured(SloClass c) {
    return c.getStatus() != null
        && c.getStatus().perPodCutoffRps != null
        && c.getStatus().perPodCutoffRps > 0;
  }

  /**
   * A run's pod CPU in millicores, from its context.podCpu; null when the run does not say.
   *
   * @throws IllegalArgumentException when podCpu is not a positive quantity (the API validates
   *     first)
   */
  public static Long podCpuMillis(CalibrationRun run) {
    return run.context() == null ? null : cpuMillis(run.context().podCpu());
  }

  /**
   * A CPU quantity in millicores (rounded up: 0.5m is 1m, as the API server stores it); null for
   * null.
   *
   * @throws IllegalArgumentException when it is not positive or does not fit in a long
   */
  public static Long cpuMillis(String cpu) {
    if (cpu == null) {
      return null;
    }
    BigDecimal cores = Quantity.getAmountInBytes(new Quantity(cpu));
    if (cores.signum() <= 0) {
      throw new IllegalArgumentException(
          "must be a positive CPU quantity such as 250m or 1, was '" + cpu + "'");
    }
    try {
      return cores.movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "must be a CPU quantity of at most " + Long.MAX_VALUE + "m, was '" + cpu + "'", e);
    }
  }

  /**
   * The class's candidate pod sizes with the newest per-pod cut-off calibrated at each, for the
   * planner; null when the class declares no candidates. A cut-off stored before sizes were
   * recorded counts as the declared size's. Once the context watch chose a figure ({@link
   * #contextCutoff}), the size the pools run has that figure, and another size only a figure
   * measured in the contexts it was chosen from ({@code Matched}) or none ({@code NoMatch}): a size
   * is not chosen on a figure from another context.
   */
  public static PodSizing sizing(SloClass c) {
    SloClassSpec.PodResources r = c.getSpec().resources;
    if (r.cpuCandidates == null || r.cpuCandidates.isEmpty()) {
      return null;
    }
    long declared = cpuMillis(r.cpu);
    List<SloClassStatus.CutoffPoint> cutoffs =
        c.getStatus() == null ? List.of() : nonNull(c.getStatus().cutoffs);
    Double inContext = contextCutoff(c);
    SloClassStatus.Context context = inContext == null ? null : c.getStatus().context;
    if (context != null) {
      boolean matched = SloClassStatus.Context.MATCHED.equals(context.match);
      List<String> from = nonNull(context.measuredIn);
      cutoffs = cutoffs.stream().filter(p -> matched && from.contains(p.context)).toList();
    }
    List<Long> sizes = new ArrayList<>();
    sizes.add(declared);
    r.cpuCandidates.stream()
        .map(CalibrationStatusMapper::cpuMillis)
        .filter(m -> !sizes.contains(m))
        .forEach(sizes::add);
    sizes.sort(Comparator.naturalOrder());
    List<SloClassStatus.CutoffPoint> kept = cutoffs;
    List<PodSizing.SizeCutoff> candidates =
        sizes.stream()
            .map(
                m ->
                    new PodSizing.SizeCutoff(
                        m,
                        context != null && Objects.equals(context.podCpuMillis, m)
                            ? inContext
                            : measuredPerPod(
                                kept.stream()
                                    .filter(
                                        p ->
                                            (p.podCpuMillis == null ? declared : p.podCpuMillis)
                                                == m)
                                    .toList())))
            .toList();
    Long fitAt =
        c.getStatus() == null || c.getStatus().fit == null ? null : c.getStatus().fit.podCpuMillis;
    return new PodSizing(declared, candidates, fitAt);
  }

  /** The largest pod CPU the class may run (declared or a candidate), as the class spells it. */
  public static String largestCpu(SloClassSpec s) {
    String max = s.resources.cpu;
    for (String c :
        s.resources.cpuCandidates == null ? List.<String>of() : s.resources.cpuCandidates) {
      max = cpuMillis(c) > cpuMillis(max) ? c : max;
    }
    return max;
  }

  /**
   * The pod CPU as the class spells it (so that the objects built from it read back unchanged): the
   * declared cpu, or the candidate of {@code chosenMillis}; null chooses the declared cpu.
   */
  public static String cpu(SloClassSpec s, Long chosenMillis) {
    if (chosenMillis == null || chosenMillis.equals(cpuMillis(s.resources.cpu))) {
      return s.resources.cpu;
    }
    for (String c :
        s.resources.cpuCandidates == null ? List.<String>of() : s.resources.cpuCandidates) {
      if (chosenMillis.equals(cpuMillis(c))) {
        return c;
      }
    }
    return chosenMillis + "m";
  }

  /** Runs of unrecorded size go with any size (runs stored before sizes were recorded). */
  private static boolean sameSize(Long a, Long b) {
    return a == null || b == null || a.equals(b);
  }

  /** Whether a calibration changed between two versions of a class (a reason to plan again). */
  public static boolean calibrationChanged(SloClass newer, SloClass older) {
    SloClassStatus a = newer.getStatus();
    SloClassStatus b = older == null ? null : older.getStatus();
    return !Objects.equals(a == null ? null : a.calibratedAt, b == null ? null : b.calibratedAt)
        || !Objects.equals(a == null ? null : a.lastRunId, b == null ? null : b.lastRunId);
  }

  static SloClassStatus.CutoffPoint cutoffPoint(
      CalibrationOutcome outcome, Long podCpuMillis, String at) {
    CutoffResult c = outcome.cutoff();
    if (c.cutoffRps() == null) {
      return null;
    }
    SloClassStatus.CutoffPoint p = new SloClassStatus.CutoffPoint();
    p.pods = outcome.replicas();
    p.context = outcome.contextLabel();
    p.rps = c.cutoffRps();
    p.perPodRps = outcome.perPodCutoffRps();
    p.status = c.status();
    p.runId = outcome.runId();
    p.percentile = c.percentile();
    p.targetMs = c.targetLatencyMs();
    p.measuredAt = at;
    p.podCpuMillis = podCpuMillis;
    return p;
  }

  /**
   * Appends {@code point}, keeping the newest {@link #MAX_CUTOFFS_PER_CONTEXT} per label and {@link
   * #MAX_CONTEXTS} labels.
   */
  static List<SloClassStatus.CutoffPoint> withCutoff(
      List<SloClassStatus.CutoffPoint> cutoffs, SloClassStatus.CutoffPoint point) {
    List<SloClassStatus.CutoffPoint> all = new ArrayList<>(nonNull(cutoffs));
    if (point != null) {
      all.add(point);
    }
    Map<String, Integer> newest = new LinkedHashMap<>();
    for (int i = 0; i < all.size(); i++) {
      newest.put(all.get(i).context, i);
    }
    List<String> keptLabels =
        newest.entrySet().stream()
            .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
            .limit(MAX_CONTEXTS)
            .map(Map.Entry::getKey)
            .toList();
    Map<String, Integer> remaining = new LinkedHashMap<>();
    for (SloClassStatus.CutoffPoint p : all) {
      remaining.merge(p.context, 1, Integer::sum);
    }
    List<SloClassStatus.CutoffPoint> kept = new ArrayList<>();
    for (SloClassStatus.CutoffPoint p : all) {
      int left = remaining.merge(p.context, -1, Integer::sum);
      if (keptLabels.contains(p.context) && left < MAX_CUTOFFS_PER_CONTEXT) {
        kept.add(p);
      }
    }
    return kept;
  }

  /** The newest single-pod cut-off, else the newest cut-off per pod; null when none. */
  static Double measuredPerPod(List<SloClassStatus.CutoffPoint> cutoffs) {
    Double any = null;
    for (int i = cutoffs.size() - 1; i >= 0; i--) {
      SloClassStatus.CutoffPoint p = cutoffs.get(i);
      if (p.rps > 0 && p.pods == 1) {
        return p.rps;
      }
      if (any == null && p.rps > 0 && p.pods > 0) {
        any = p.rps / p.pods;
      }
    }
    return any;
  }

  /**
   * Stores {@code run}, replacing one of the same context, replicas and pod size; the oldest go
   * beyond {@link #MAX_STORED_RUNS}.
   */
  static List<SloClassStatus.StoredRun> withRun(
      List<SloClassStatus.StoredRun> runs, SloClassStatus.StoredRun run) {
    List<SloClassStatus.StoredRun> kept = new ArrayList<>();
    for (SloClassStatus.StoredRun r : runs) {
      if (!(Objects.equals(r.context, run.context)
          && r.replicas == run.replicas
          && sameSize(r.podCpuMillis, run.podCpuMillis))) {
        kept.add(r);
      }
    }
    kept.add(run);
    return kept.size() <= MAX_STORED_RUNS
        ? kept
        : new ArrayList<>(kept.subList(kept.size() - MAX_STORED_RUNS, kept.size()));
  }

  static SloClassStatus.StoredRun toStored(CalibrationRun run, String at) {
    SloClassStatus.StoredRun s = new SloClassStatus.StoredRun();
    s.runId = run.runId();
    s.context = run.context().label();
    s.replicas = run.context().replicas();
    s.partial = run.partial();
    s.storedAt = at;
    s.podCpuMillis = podCpuMillis(run);
    s.steps =
        run.steps().stream()
            .map(
                t ->
                    new CalibrationStep(
                        t.index(),
                        t.offeredRps(),
                        t.achievedRps(),
                        t.durationSeconds(),
                        t.total(),
                        Map.of()))
            .toList();
    return s;
  }

  static CalibrationRun toRun(SloClassStatus.StoredRun s, String sloClass) {
    return new CalibrationRun(
        CalibrationRun.SCHEMA_VERSION,
        s.runId,
        sloClass,
        s.partial,
        new CalibrationContext(
            s.context,
            s.podCpuMillis == null ? null : s.podCpuMillis + "m",
            null,
            s.replicas,
            List.of(),
            Map.of()),
        nonNull(s.steps));
  }

  static SloClassStatus.Fit toStatus(
      ModelFit fit, String context, List<StoredRunRef> runs, String at) {
    SloClassStatus.Fit f = new SloClassStatus.Fit();
    f.status = fit.status();
    f.context = context;
    f.percentile = fit.percentile();
    f.pointsUsed = fit.pointsUsed();
    f.pointsExcluded = fit.pointsExcluded();
    f.sigmaFitted = fit.sigmaFitted();
    f.rSquared = fit.rSquared();
    f.rmseMs = fit.rmseMs();
    f.maxMeasuredLoadRps = fit.maxMeasuredLoadRps();
    f.runIds = runs.stream().map(StoredRunRef::runId).toList();
    f.replicaCounts = runs.stream().map(StoredRunRef::replicas).distinct().toList();
    f.reasons = fit.reasons();
    f.notes = fit.notes();
    f.fittedAt = at;
    return f;
  }

  static SloClassStatus.Model toStatus(LatencyModel model) {
    if (model == null) {
      return null;
    }
    SloClassStatus.Model m = new SloClassStatus.Model();
    if (model instanceof UslModel usl) {
      m.alpha = usl.alpha();
      m.beta = usl.beta();
      m.scaleMs = usl.scaleMs();
    } else if (model instanceof QueueModel queue) {
      m.queueMs = queue.queueMs();
      m.capacityRps = queue.capacityRps();
      m.scaleMs = queue.scaleMs();
    }
    m.form = model.form();
    m.sigma = model.sigma();
    m.theta = model.theta();
    return m;
  }

  /** The stored model's parameters as the engine's model; null when none stored. */
  static LatencyModel toModel(SloClassStatus.Model m) {
    if (m == null) {
      return null;
    }
    if (QueueModel.FORM.equals(m.form)) {
      if (m.queueMs == null || m.capacityRps == null) {
        throw new IllegalArgumentException("queue model needs queueMs and capacityRps");
      }
      return new QueueModel(m.scaleMs, m.queueMs, m.capacityRps, m.sigma, m.theta);
    }
    if (m.form != null && !UslModel.FORM.equals(m.form)) {
      throw new IllegalArgumentException("unknown model form " + m.form);
    }
    return new UslModel(m.scaleMs, m.alpha, m.beta, m.sigma, m.theta);
  }

  private static String formOf(SloClassStatus.Model m) {
    return m == null || m.form == null ? UslModel.FORM : m.form;
  }

  /**
   * The stored runs that read as calibration runs: one stored before steps kept the format's {@code
   * total} (flat counts and percentiles) is dropped, as the CRD schema no longer accepts it.
   */
  private static List<SloClassStatus.StoredRun> storedRuns(SloClassStatus status) {
    return status == null
        ? List.of()
        : nonNull(status.calibrationRuns).stream()
            .filter(
                r ->
                    nonNull(r.steps).stream()
                        .allMatch(step -> step != null && step.total() != null))
            .toList();
  }

  private static <T> List<T> nonNull(List<T> list) {
    return list == null ? List.of() : list;
  }
}
