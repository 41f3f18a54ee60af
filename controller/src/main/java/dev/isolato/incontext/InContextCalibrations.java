package dev.isolato.incontext;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.calibration.CalibrationRun;
import dev.isolato.calibration.CalibrationValidator;
import dev.isolato.calibration.FieldError;
import dev.isolato.calibration.RequestMix;
import dev.isolato.slo.CalibrationOutcome;
import dev.isolato.slo.ClassTarget;
import dev.isolato.slo.InvalidInputException;
import dev.isolato.slo.SloEngine;
import dev.isolato.tenancy.CalibrationStatusMapper;
import dev.isolato.tenancy.ClassPasses;
import dev.isolato.tenancy.ClassRequests;
import dev.isolato.tenancy.ClassStatusApply;
import dev.isolato.tenancy.PoolNames;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassStatus;
import dev.isolato.tenancy.TenantTable;
import dev.isolato.tenancy.Workload;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * In-context calibrations (issue 34 item 1). {@link #begin} starts one (the API, or this loop by
 * itself, {@link AutoStart}): a temporary replica of the class next to its real neighbours, out of
 * the tenants' Service. The loop, on the leader, advances each one: once the replica is ready it
 * starts the generator Job on the replica's node; once the Job completes it reads the run from the
 * Job's log, stores it like {@code POST /api/v1/calibrations} (the engine's cut-off and fit) under
 * the context it measured, and deletes the replica and the Job. The calibration's state lives in
 * the class's {@code status.inContext} (field manager {@value #FIELD_MANAGER}), so a restarted
 * leader resumes it.
 */
public final class InContextCalibrations {
  public static final String FIELD_MANAGER = "isolato-calibration";
  private static final Logger log = LoggerFactory.getLogger(InContextCalibrations.class);

  private final KubernetesClient client;
  private final SloEngine engine;
  private final CalibrationProperties props;
  private final String generatorNamespace;
  private final ObjectMapper json =
      new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);

  /** Calibrations whose objects this leader deleted already (the status says they ended). */
  private final Set<String> cleaned = ConcurrentHashMap.newKeySet();

  private final ClassPasses passes;
  private final ClassPods pods;
  private final ContextWatch contexts;

  /**
   * Refused to start: already running, not now (no ready pool pod to copy), or never as specified.
   */
  public static final class Refused extends RuntimeException {
    /** Why: another calibration runs, the pool is not ready for one, or the class's spec. */
    public enum Why {
      RUNNING,
      NOT_NOW,
      SPEC
    }

    public final Why why;

    Refused(String message, Why why) {
      super(message);
      this.why = why;
    }
  }

  public InContextCalibrations(
      KubernetesClient client,
      SloEngine engine,
      CalibrationProperties props,
      String generatorNamespace) {
    this.client = client;
    this.engine = engine;
    this.props = props;
    this.generatorNamespace = generatorNamespace;
    this.passes = new ClassPasses(client, "in-context-calibration", this::pass);
    this.pods = new ClassPods(client);
    this.contexts =
        new ContextWatch(
            client, pods, engine.config().stability(), props.auto(), props.contextSettle());
  }

  /**
   * Starts advancing calibrations and watching the classes' pods (on becoming the leader, after the
   * controller is ready); idempotent.
   */
  public void start() {
    pods.start();
    if (passes.start(props.interval())) {
      log.info(
          "in-context calibration: generator {}, budget {} s, automatic starts {}",
          props.generatorImage(),
          props.budget().toSeconds(),
          props.auto() ? "on" : "off");
    }
  }

  public void stop() {
    passes.stop();
    pods.stop();
  }

  /**
   * One pass over every class: where each pool runs and the figure measured there ({@link
   * ContextWatch}, when started: a loop of a test's own runs without it); then advance, clean up,
   * start automatically.
   */
  public void pass(List<SloClass> all, Instant now) {
    try {
      contexts.pass(all, now);
    } catch (KubernetesClientException e) {
      log.warn("context watch: {}", e.toString());
    }
    for (SloClass cls : all) {
      if (cls.getSpec() == null || cls.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      try {
        advance(cls, now);
      } catch (KubernetesClientException | IllegalArgumentException e) {
        log.warn("in-context calibration of {}: {}", cls.getMetadata().getName(), e.toString());
      }
    }
  }

  private void advance(SloClass cls, Instant now) {
    SloClassStatus st = cls.getStatus() == null ? new SloClassStatus() : cls.getStatus();
    SloClassStatus.InContext s = st.inContext;
    if (s != null && CalibrationState.PENDING.equals(s.phase)) {
      pending(cls, s, now);
    } else if (s != null && CalibrationState.RUNNING.equals(s.phase)) {
      running(cls, s, now);
    } else if (s != null && s.id != null && !cleaned.contains(s.id)) {
      cleanUp(s.id, PoolNames.sharedNamespace(cls.getMetadata().getName()));
      cleaned.add(s.id);
    }
    if (props.auto() && (s == null || !CalibrationState.running(s.phase))) {
      AutoStart auto =
          new AutoStart(
              CalibrationStatusMapper.perPodCutoffMeasured(cls),
              poolReady(cls),
              false,
              instant(s == null ? null : s.startedAt),
              s != null && CalibrationState.SUCCEEDED.equals(s.phase) ? s.podCpuMillis : null,
              podCpuMillis(cls),
              instant(st.capacity == null ? null : st.capacity.driftSince),
              contextChange(st.context),
              instant(st.context == null ? null : st.context.since));
      var reason = auto.reason(now, props.retryAfter());
      if (reason.isPresent()) {
        try {
          begin(cls, reason.get(), now);
          return;
        } catch (Refused e) {
          log.info(
              "class {}: no automatic calibration: {}",
              cls.getMetadata().getName(),
              e.getMessage());
        }
      }
    }
  }

  /**
   * Starts a calibration of {@code cls}: the replica's table, NetworkPolicy and pod, and {@code
   * Pending} in the class's status.
   *
   * @throws Refused when one runs already (conflict) or the pool has no ready pod or no tenant
   */
  public SloClassStatus.InContext begin(SloClass cls, String reason, Instant now) {
    String name = cls.getMetadata().getName();
    SloClassStatus.InContext last = cls.getStatus() == null ? null : cls.getStatus().inContext;
    if (last != null && CalibrationState.running(last.phase)) {
      throw new Refused(
          "calibration " + last.id + " of class " + name + " is " + last.phase,
          Refused.Why.RUNNING);
    }
    try {
      ClassRequests.of(name, cls.getSpec());
    } catch (IllegalArgumentException e) {
      throw new Refused(e.getMessage(), Refused.Why.SPEC);
    }
    String ns = PoolNames.sharedNamespace(name);
    Deployment pool = client.apps().deployments().inNamespace(ns).withName(Workload.NAME).get();
    if (pool == null
        || pool.getStatus() == null
        || pool.getStatus().getReadyReplicas() == null
        || pool.getStatus().getReadyReplicas() < 1) {
      throw new Refused(
          "class " + name + " has no ready pod in " + ns + " to copy", Refused.Why.NOT_NOW);
    }
    ConfigMap table = client.configMaps().inNamespace(ns).withName(Workload.TABLE_CONFIGMAP).get();
    String tableJson = table == null ? null : table.getData().get(TenantTable.FILE);
    if (tableJson == null || CalibrationTable.tenants(tableJson).isEmpty()) {
      throw new Refused(
          "class " + name + " has no tenant: the ramp replays the tenants' requests",
          Refused.Why.NOT_NOW);
    }
    String id = Long.toString(now.toEpochMilli(), 36);
    StepPlan plan = StepPlan.of(rampReference(cls), props.budget());
    try {
      client.resource(CalibrationObjects.table(cls, id, ns, tableJson)).create();
      client.resource(CalibrationObjects.admitGenerator(cls, id, ns, generatorNamespace)).create();
      client.resource(CalibrationObjects.replica(cls, id, pool)).create();
    } catch (KubernetesClientException e) {
      // e.g. the pool's quota (maxReplicas + 1 pods) taken by a rolling update: nothing may stay
      cleanUp(id, ns);
      if (e.getCode() == 403 || e.getCode() == 409 || e.getCode() == 422) {
        throw new Refused(
            "the calibration replica of class " + name + " was refused: " + e.getMessage(),
            Refused.Why.NOT_NOW);
      }
      throw e;
    }
    SloClassStatus.InContext s = new SloClassStatus.InContext();
    s.id = id;
    s.phase = CalibrationState.PENDING;
    s.reason = reason;
    s.startedAt = now.toString();
    s.deadline = now.plus(props.readyTimeout()).plus(plan.bound()).plusSeconds(30).toString();
    s.podCpuMillis = podCpuMillis(cls);
    s.rates = plan.rates();
    s.requestsPerStep = plan.requestsPerStep();
    s.message =
        "replica starting; then "
            + plan.rates().size()
            + " steps of "
            + plan.requestsPerStep()
            + " requests ("
            + plan.ratesFlag()
            + " req/s), planned "
            + plan.planned().toSeconds()
            + " s";
    write(cls, s);
    event(
        cls,
        "CalibrationStarted",
        "Normal",
        "in-context calibration " + id + " (" + reason + "): " + s.message,
        now);
    return s;
  }

  /** Replica ready: start the generator on its node. Not ready in time: fail. */
  private void pending(SloClass cls, SloClassStatus.InContext s, Instant now) {
    String ns = PoolNames.sharedNamespace(cls.getMetadata().getName());
    Pod pod = client.pods().inNamespace(ns).withName(CalibrationObjects.name(s.id)).get();
    if (pod == null) {
      fail(cls, s, "the calibration replica is gone", now);
      return;
    }
    if (!ready(pod)) {
      Instant started = instant(s.startedAt);
      if (started == null || now.isAfter(started.plus(props.readyTimeout()))) {
        fail(
            cls,
            s,
            "the calibration replica was not ready within "
                + props.readyTimeout().toSeconds()
                + " s (phase "
                + (pod.getStatus() == null ? "?" : pod.getStatus().getPhase())
                + ")",
            now);
      }
      return;
    }
    String node = pod.getSpec().getNodeName();
    StepPlan plan = StepPlan.of(s.rates, s.requestsPerStep);
    if (!startGenerator(cls, s, pod, plan, 0, Pass.COARSE, now)) {
      return;
    }
    s.phase = CalibrationState.RUNNING;
    s.node = node;
    neighbours(cls, node, s);
    s.message = "generator running on " + node + ": " + plan.ratesFlag() + " req/s";
    write(cls, s);
  }

  /** The generator's passes: the ramp, then finer steps between its cut-off and violation. */
  enum Pass {
    COARSE(""),
    FINE("-fine");

    final String suffix;

    Pass(String suffix) {
      this.suffix = suffix;
    }

    String job(String id) {
      return CalibrationObjects.name(id) + suffix;
    }
  }

  /** Starts one pass's Job against the replica; false when the calibration failed instead. */
  private boolean startGenerator(
      SloClass cls,
      SloClassStatus.InContext s,
      Pod replica,
      StepPlan plan,
      int firstIndex,
      Pass pass,
      Instant now) {
    String ns = PoolNames.sharedNamespace(cls.getMetadata().getName());
    String table =
        client
            .configMaps()
            .inNamespace(ns)
            .withName(CalibrationObjects.name(s.id))
            .get()
            .getData()
            .get(TenantTable.FILE);
    RequestMix mix;
    try {
      mix = ClassRequests.of(cls.getMetadata().getName(), cls.getSpec());
    } catch (IllegalArgumentException e) {
      fail(cls, s, e.getMessage(), now); // the spec changed since the start
      return false;
    }
    List<String> args =
        GeneratorArgs.of(
            runId(cls, s),
            cls.getMetadata().getName(),
            replica.getStatus().getPodIP(),
            Workload.PORT,
            CalibrationTable.tenants(table),
            mix,
            plan,
            firstIndex);
    long deadline = Math.max(30, plan.bound().toSeconds() + 30);
    client
        .resource(
            CalibrationObjects.generator(
                cls,
                s.id,
                pass.job(s.id),
                generatorNamespace,
                replica.getSpec().getNodeName(),
                props.generatorImage(),
                args,
                deadline))
        .create();
    return true;
  }

  /**
   * Other classes' pods on the node (the rule {@link ContextWatch} matches pools with), and their
   * load from their latest live window. From the watched copy; a loop not started (a test's own)
   * lists the node's class pods once instead.
   */
  private void neighbours(SloClass cls, String node, SloClassStatus.InContext s) {
    List<NodeContexts.PodOnNode> onNode =
        pods.onNode(node)
            .orElseGet(
                () ->
                    ClassPods.selected(client)
                        .withField("spec.nodeName", node)
                        .list()
                        .getItems()
                        .stream()
                        .map(ContextWatch::onNode)
                        .filter(Objects::nonNull)
                        .toList());
    String name = cls.getMetadata().getName();
    Map<String, Integer> pods = NodeContexts.neighbourPods(name, onNode);
    s.ioNeighbours = NodeContexts.ioNeighbours(name, onNode);
    Map<String, Double> rps = new TreeMap<>();
    pods.forEach(
        (other, n) -> {
          SloClass o = passes.get(other);
          if (o != null
              && o.getStatus() != null
              && o.getStatus().capacity != null
              && o.getStatus().capacity.perPodRps != null) {
            rps.put(other, o.getStatus().capacity.perPodRps * n);
          }
        });
    s.neighbourPods = pods;
    s.neighbourRps = rps;
  }

  private void running(SloClass cls, SloClassStatus.InContext s, Instant now) {
    Pass pass = s.fineRates == null ? Pass.COARSE : Pass.FINE;
    Job job =
        client.batch().v1().jobs().inNamespace(generatorNamespace).withName(pass.job(s.id)).get();
    if (job == null) {
      fail(cls, s, "the generator Job is gone", now);
      return;
    }
    var js = job.getStatus();
    if (js != null && js.getSucceeded() != null && js.getSucceeded() > 0) {
      String logText = generatorLog(s.id, pass);
      GeneratorOutput out;
      try {
        out = GeneratorOutput.parse(logText).orElse(null);
      } catch (IllegalArgumentException e) {
        fail(cls, s, e.getMessage(), now);
        return;
      }
      if (out == null) {
        fail(cls, s, "the generator's log holds no run: " + tail(logText), now);
        return;
      }
      Optional<String> nothing = out.nothingServed(logText);
      if (nothing.isPresent()) {
        fail(cls, s, nothing.get(), now);
        return;
      }
      if (pass == Pass.FINE) {
        Optional<GeneratorOutput> coarse = coarseOutput(s.id);
        if (coarse.isEmpty()) {
          fail(cls, s, "the first pass's log is gone: cannot merge the fine steps", now);
          return;
        }
        Optional<String> refuted = refuted(cls, out, coarse.get().run().steps().size());
        if (refuted.isPresent()) {
          rampStands(cls, s, coarse.get(), "discarded", refuted.get(), now);
        } else {
          finish(cls, s, coarse.get().with(out), now);
        }
      } else if (!refine(cls, s, out, now)) {
        finish(cls, s, out, now);
      }
    } else if (js != null && js.getFailed() != null && js.getFailed() > 0) {
      String logTail = tail(generatorLog(s.id, pass));
      String why =
          "the generator failed: "
              + (logTail.isEmpty() ? "no log; Job conditions " + jobConditions(job) : logTail);
      Optional<GeneratorOutput> coarse = pass == Pass.FINE ? coarseOutput(s.id) : Optional.empty();
      if (coarse.isPresent()) {
        rampStands(cls, s, coarse.get(), "failed", why, now);
      } else {
        fail(cls, s, why, now);
      }
    } else {
      Optional<String> stuck = GeneratorPods.stuck(generatorPods(s.id, pass));
      Instant deadline = instant(s.deadline);
      if (stuck.isPresent()) {
        fail(cls, s, "the generator cannot start: " + stuck.get(), now);
      } else if (deadline != null && now.isAfter(deadline)) {
        fail(cls, s, "past the calibration's deadline " + s.deadline, now);
      }
    }
  }

  /**
   * After the ramp: a second pass of finer steps inside its bracket, or of steps above a ramp that
   * never failed ({@link KneeRefinement}); false when the ramp's figure is fine enough (or nothing
   * held).
   */
  private boolean refine(
      SloClass cls, SloClassStatus.InContext s, GeneratorOutput out, Instant now) {
    Optional<KneeRefinement> fine;
    try {
      fine = KneeRefinement.of(engine.detect(out.run(), CalibrationStatusMapper.target(cls)));
    } catch (InvalidInputException e) { // finish() says why the run cannot be stored
      return false;
    }
    String ns = PoolNames.sharedNamespace(cls.getMetadata().getName());
    Pod replica = client.pods().inNamespace(ns).withName(CalibrationObjects.name(s.id)).get();
    if (fine.isEmpty() || replica == null || !ready(replica)) {
      return false;
    }
    StepPlan plan = StepPlan.of(fine.get().rates(), s.requestsPerStep);
    if (!startGenerator(cls, s, replica, plan, out.run().steps().size(), Pass.FINE, now)) {
      return true; // failed, and said so
    }
    s.fineRates = plan.rates();
    s.deadline = now.plus(plan.bound()).plusSeconds(30).toString();
    s.refinement = describe(fine.get());
    s.message = "second pass on " + s.node + ": " + plan.ratesFlag() + " req/s, " + s.refinement;
    write(cls, s);
    return true;
  }

  /** Stores the ramp alone, at its coarser resolution, saying why its second pass did not count. */
  private void rampStands(
      SloClass cls,
      SloClassStatus.InContext s,
      GeneratorOutput ramp,
      String outcome,
      String why,
      Instant now) {
    log.warn("in-context calibration {}: second pass {}, the ramp stands: {}", s.id, outcome, why);
    s.refinement = outcome + ", the ramp stands: " + why;
    s.fineRates = null;
    finish(cls, s, ramp, now);
  }

  private static String describe(KneeRefinement fine) {
    String ref =
        " (first re-measuring the ramp's held " + StepPlan.number(fine.reference()) + " req/s)";
    return fine.extending()
        ? "extended above the ramp, which never failed" + ref
        : "narrowed between the ramp's cut-off and its violation at "
            + StepPlan.number(fine.failed())
            + " req/s"
            + ref;
  }

  /** Why the second pass's steps cannot join the ramp's; empty when its reference step held. */
  private Optional<String> refuted(SloClass cls, GeneratorOutput second, int referenceIndex) {
    try {
      return KneeRefinement.refuted(
          engine.detect(second.run(), CalibrationStatusMapper.target(cls)), referenceIndex);
    } catch (InvalidInputException e) {
      return Optional.of("its run cannot be judged: " + e.getMessage());
    }
  }

  private Optional<GeneratorOutput> coarseOutput(String id) {
    try {
      return GeneratorOutput.parse(generatorLog(id, Pass.COARSE));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static String jobConditions(Job job) {
    var conditions = job.getStatus() == null ? null : job.getStatus().getConditions();
    if (conditions == null || conditions.isEmpty()) {
      return "none";
    }
    return conditions.stream()
        .map(c -> c.getType() + "/" + c.getReason() + ": " + c.getMessage())
        .collect(Collectors.joining("; "));
  }

  /** The pods of one pass's Job. */
  private List<Pod> generatorPods(String id, Pass pass) {
    return client
        .pods()
        .inNamespace(generatorNamespace)
        .withLabel(CalibrationObjects.ID_LABEL, id)
        .withLabel(CalibrationObjects.JOB_LABEL, pass.job(id))
        .list()
        .getItems();
  }

  private String generatorLog(String id, Pass pass) {
    for (Pod p : generatorPods(id, pass)) {
      try {
        return client
            .pods()
            .inNamespace(generatorNamespace)
            .withName(p.getMetadata().getName())
            .getLog();
      } catch (KubernetesClientException e) {
        log.warn("generator log of {}: {}", p.getMetadata().getName(), e.getMessage());
      }
    }
    return "";
  }

  /** Stores the run under the context it measured, then the outcome in the calibration's status. */
  private void finish(SloClass cls, SloClassStatus.InContext s, GeneratorOutput out, Instant now) {
    GeneratorOutput.Generator g = out.generator();
    Site site =
        new Site(
            s.node,
            g == null ? null : g.cpuModel(),
            g == null ? null : g.cpuMhz(),
            s.neighbourPods,
            s.neighbourRps,
            g == null ? null : g.nodeBusyPct(),
            s.ioNeighbours);
    CalibrationRun run = InContextRun.of(out.run(), site, cls, s, podCpu(cls), g);
    List<FieldError> errors = CalibrationValidator.validate(run);
    ClassTarget target = CalibrationStatusMapper.target(cls);
    if (!errors.isEmpty() || !target.validate("spec.latency.").isEmpty()) {
      fail(cls, s, "the run cannot be stored: " + errors + target.validate("spec.latency."), now);
      return;
    }
    CalibrationOutcome outcome = null;
    SloClass current = cls;
    for (int attempt = 1; outcome == null; attempt++) {
      try {
        outcome = CalibrationRecorder.record(client, engine, current, target, run, now).outcome();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 3) {
          throw e;
        }
        current = client.resources(SloClass.class).withName(cls.getMetadata().getName()).get();
      }
    }
    s.phase = CalibrationState.SUCCEEDED;
    s.finishedAt = now.toString();
    s.context = site.label();
    s.cpuModel = site.cpuModel();
    s.cpuMhz = site.cpuMhz();
    s.nodeBusyPct = site.nodeBusyPct();
    s.generatorCpuPct = g == null ? null : g.cpuPct();
    s.achievedRps = round(out.meanAchievedRps());
    s.perPodCutoffRps = outcome.perPodCutoffRps();
    s.runId = run.runId();
    s.message =
        (outcome.perPodCutoffRps() == null
                ? "p95 over target at the lowest step: no cut-off found"
                : "cut-off " + round(outcome.perPodCutoffRps()) + " req/s per pod")
            + " on "
            + s.node
            + " ("
            + site.label()
            + ")"
            + (s.refinement == null ? "" : "; second pass " + s.refinement);
    write(cls, s);
    event(cls, "Calibrated", "Normal", "in-context calibration " + s.id + ": " + s.message, now);
    cleanUp(s.id, PoolNames.sharedNamespace(cls.getMetadata().getName()));
    cleaned.add(s.id);
  }

  private void fail(SloClass cls, SloClassStatus.InContext s, String why, Instant now) {
    s.phase = CalibrationState.FAILED;
    s.finishedAt = now.toString();
    s.message = why;
    write(cls, s);
    event(cls, "CalibrationFailed", "Warning", "in-context calibration " + s.id + ": " + why, now);
    cleanUp(s.id, PoolNames.sharedNamespace(cls.getMetadata().getName()));
    cleaned.add(s.id);
  }

  /**
   * Deletes calibration {@code id}'s objects. Its pods go at once (grace 0): neither serves a
   * tenant, and a pod whose node stopped answering would otherwise stay Terminating.
   */
  public void cleanUp(String id, String poolNamespace) {
    String label = CalibrationObjects.ID_LABEL;
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace(generatorNamespace)
        .withLabel(label, id)
        .withPropagationPolicy(DeletionPropagation.BACKGROUND)
        .delete();
    for (String ns : List.of(generatorNamespace, poolNamespace)) {
      client.pods().inNamespace(ns).withLabel(label, id).withGracePeriod(0).delete();
    }
    client
        .network()
        .v1()
        .networkPolicies()
        .inNamespace(poolNamespace)
        .withLabel(label, id)
        .delete();
    client.configMaps().inNamespace(poolNamespace).withLabel(label, id).delete();
  }

  private boolean poolReady(SloClass cls) {
    Deployment d =
        client
            .apps()
            .deployments()
            .inNamespace(PoolNames.sharedNamespace(cls.getMetadata().getName()))
            .withName(Workload.NAME)
            .get();
    return d != null
        && d.getStatus() != null
        && d.getStatus().getReadyReplicas() != null
        && d.getStatus().getReadyReplicas() > 0;
  }

  private static boolean ready(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getPodIP() != null
        && pod.getSpec().getNodeName() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** The pod CPU the class's pools run now (the plan's choice, else spec.resources.cpu). */
  static String podCpu(SloClass cls) {
    SloClassStatus st = cls.getStatus();
    return st != null && st.plan != null && st.plan.podCpu != null
        ? st.plan.podCpu
        : cls.getSpec().resources.cpu;
  }

  static long podCpuMillis(SloClass cls) {
    return CalibrationStatusMapper.cpuMillis(podCpu(cls));
  }

  static String runId(SloClass cls, SloClassStatus.InContext s) {
    return "in-context-" + cls.getMetadata().getName() + "-" + s.id;
  }

  private static Instant instant(String at) {
    try {
      return at == null ? null : Instant.parse(at);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static double round(double d) {
    return Math.round(d * 10) / 10.0;
  }

  private static String tail(String logText) {
    String t = Objects.requireNonNullElse(logText, "").strip();
    return t.length() > 300 ? "…" + t.substring(t.length() - 300) : t;
  }

  private void write(SloClass cls, SloClassStatus.InContext s) {
    ClassStatusApply.apply(client, cls, FIELD_MANAGER, "inContext", json.valueToTree(s));
  }

  private void event(SloClass cls, String reason, String type, String message, Instant now) {
    ContextWatch.event(client, cls, reason, type, message, FIELD_MANAGER, now);
  }

  /** Why the context watch holds a recalibration due; null when none is. */
  static String contextChange(SloClassStatus.Context context) {
    if (context == null || !Boolean.TRUE.equals(context.recalibrationDue)) {
      return null;
    }
    return "no cut-off measured where the pool runs ("
        + String.join(", ", context.unmatched == null ? List.of() : context.unmatched)
        + ")";
  }

  /** How long a calibration of {@code cls} may take at most, for callers that wait. */
  public Duration bound(SloClass cls) {
    return props.readyTimeout().plus(StepPlan.of(rampReference(cls), props.budget()).bound());
  }

  /**
   * The rate a calibration's ramp is built around: the calibrated (else declared) figure, never a
   * live limit the verification loop lowered it to. That limit is a conservative floor (70 % of the
   * failing rate), and the ramp reaches only 1.5 × its reference: a recalibration after drift built
   * on it ramped gold-check to 77 req/s where its pod held 150 (2026-11-28), so it could not have
   * found the knee the context really has.
   */
  static double rampReference(SloClass cls) {
    return CalibrationStatusMapper.calibratedPerPodCutoff(cls);
  }
}
