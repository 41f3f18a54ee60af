package dev.isolato.incontext;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.events.ObjectEvents;
import dev.isolato.incontext.NodeContexts.PodOnNode;
import dev.isolato.slo.ContextStability;
import dev.isolato.slo.StabilityPolicy;
import dev.isolato.tenancy.CalibrationStatusMapper;
import dev.isolato.tenancy.ClassStatusApply;
import dev.isolato.tenancy.PodPlacement;
import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches where each class's pool runs (issue 34 item 4): per pass, the watched copy of the
 * classes' pods ({@link ClassPods}; no API call) gives each pool's nodes and their neighbour
 * classes; the node's type is the CPU model an in-context calibration of any class read there. A
 * new context counts once it has held for the settle time ({@link Settle}), so a neighbour replica
 * that comes and goes does not flip it. {@link ContextCutoffs} picks the figure measured in the
 * context that counts, which the class status carries ({@code status.context}, field manager
 * {@value #FIELD_MANAGER}) for the planner. A change of context is an Event; one with no figure
 * makes a recalibration due (an Event, the {@code Calibrated} condition, and an automatic start
 * when {@code isolato.calibration.auto} is on).
 */
final class ContextWatch {
  static final String FIELD_MANAGER = "isolato-context";
  private static final Logger log = LoggerFactory.getLogger(ContextWatch.class);

  private final KubernetesClient client;
  private final ClassPods pods;
  private final StabilityPolicy policy;
  private final boolean auto;
  private final Duration settleTime;
  private final Settle<SortedMap<String, ContextKey>> settle;
  private final ObjectMapper json =
      new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);

  /**
   * @param settleTime how long a new context must hold before it counts ({@code
   *     isolato.calibration.context-settle})
   */
  ContextWatch(
      KubernetesClient client,
      ClassPods pods,
      StabilityPolicy policy,
      boolean auto,
      Duration settleTime) {
    this.client = client;
    this.pods = pods;
    this.policy = policy;
    this.auto = auto;
    this.settleTime = settleTime;
    this.settle = new Settle<>(settleTime);
  }

  /**
   * The context that counted at the last look, from the status (so a new leader goes on from it);
   * null when the pool was not placed: its first placement counts at once.
   */
  static Settle.Seen<SortedMap<String, ContextKey>> counted(SloClassStatus.Context prev) {
    if (prev == null || prev.nodes == null || prev.nodes.isEmpty()) {
      return null;
    }
    SortedMap<String, ContextKey> nodes = new TreeMap<>();
    prev.nodes.forEach(
        (node, label) ->
            nodes.put(node, ContextKey.parse(label).orElse(new ContextKey(null, null, null))));
    Instant since;
    try {
      since = prev.since == null ? Instant.EPOCH : Instant.parse(prev.since);
    } catch (DateTimeParseException e) {
      since = Instant.EPOCH;
    }
    return new Settle.Seen<>(nodes, since);
  }

  private static String labels(SortedMap<String, ContextKey> nodes) {
    return nodes.isEmpty()
        ? "no node"
        : nodes.entrySet().stream()
            .map(e -> e.getKey() + ": " + e.getValue().label())
            .collect(Collectors.joining(", "));
  }

  /** A class pod as {@link NodeContexts} sees it; null when not placed or on its way out. */
  static PodOnNode onNode(Pod p) {
    Map<String, String> labels = p.getMetadata().getLabels();
    String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    if (node == null
        || labels == null
        || labels.get(PoolObjects.CLASS_LABEL) == null
        || p.getMetadata().getDeletionTimestamp() != null
        || "Succeeded".equals(phase)
        || "Failed".equals(phase)) {
      return null;
    }
    return new PodOnNode(
        node,
        labels.get(PoolObjects.CLASS_LABEL),
        labels.get(PoolObjects.ROLE_LABEL),
        labels.containsKey(PoolObjects.POOL_LABEL),
        "true".equals(labels.get(PodPlacement.IO_HEAVY_LABEL)));
  }

  /** One look at every class; none while the pods' watch does not run (nothing known). */
  void pass(List<SloClass> all, Instant now) {
    Map<String, List<PodOnNode>> byNode = pods.byNode().orElse(null);
    if (byNode == null) {
      return;
    }
    settle.retain(all.stream().map(c -> c.getMetadata().getName()).collect(Collectors.toSet()));
    Map<String, String> nodeTypes = nodeTypes(all);
    for (SloClass cls : all) {
      if (cls.getSpec() == null || cls.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      try {
        look(cls, byNode, nodeTypes, now);
      } catch (KubernetesClientException | IllegalArgumentException e) {
        log.warn("context of class {}: {}", cls.getMetadata().getName(), e.toString());
      }
    }
  }

  /**
   * The CPU model each node is known by: the newest in-context figure or successful in-context
   * calibration of any class there (the latter also names the node of a figure stored before
   * figures recorded their node).
   */
  static Map<String, String> nodeTypes(List<SloClass> all) {
    record Seen(String at, String node, String type) {}
    List<Seen> seen = new ArrayList<>();
    for (SloClass c : all) {
      SloClassStatus st = c.getStatus();
      if (st == null) {
        continue;
      }
      for (SloClassStatus.CutoffPoint p :
          st.cutoffs == null ? List.<SloClassStatus.CutoffPoint>of() : st.cutoffs) {
        ContextKey.parse(p.context)
            .filter(k -> p.node != null && k.nodeType() != null)
            .ifPresent(k -> seen.add(new Seen(p.measuredAt, p.node, k.nodeType())));
      }
      SloClassStatus.InContext ic = st.inContext;
      String type = ic == null ? null : new ContextKey(ic.cpuModel, null, null).nodeType();
      if (type != null && ic.node != null && CalibrationState.SUCCEEDED.equals(ic.phase)) {
        seen.add(new Seen(ic.finishedAt, ic.node, type));
      }
    }
    seen.sort(Comparator.comparing((Seen s) -> Objects.toString(s.at(), "")));
    Map<String, String> types = new HashMap<>();
    seen.forEach(s -> types.put(s.node(), s.type()));
    return types;
  }

  /** The class's figures at the pod size its pools run, oldest first. */
  static List<ContextCutoffs.Figure> figures(SloClass cls) {
    long size = InContextCalibrations.podCpuMillis(cls);
    long declared = CalibrationStatusMapper.cpuMillis(cls.getSpec().resources.cpu);
    List<ContextCutoffs.Figure> out = new ArrayList<>();
    if (cls.getStatus() == null || cls.getStatus().cutoffs == null) {
      return out;
    }
    for (SloClassStatus.CutoffPoint p : cls.getStatus().cutoffs) {
      long at = p.podCpuMillis == null ? declared : p.podCpuMillis;
      if (at == size && p.pods > 0) {
        out.add(
            new ContextCutoffs.Figure(
                p.context, p.perPodRps != null ? p.perPodRps : p.rps / p.pods));
      }
    }
    return out;
  }

  private void look(
      SloClass cls,
      Map<String, List<PodOnNode>> byNode,
      Map<String, String> nodeTypes,
      Instant now) {
    String name = cls.getMetadata().getName();
    SloClassStatus.Context prev = cls.getStatus() == null ? null : cls.getStatus().context;
    Settle.Seen<SortedMap<String, ContextKey>> counts =
        settle.see(name, counted(prev), NodeContexts.ofPool(name, byNode, nodeTypes), now);
    settle
        .pending(name)
        .filter(p -> p.since().equals(now))
        .ifPresent(
            p ->
                log.info(
                    "class {}: pool seen in another context ({}); it counts if it holds until {}",
                    name,
                    labels(p.value()),
                    p.since().plus(settleTime)));
    SortedMap<String, ContextKey> nodes = counts.value();
    boolean ioHeavy =
        byNode.values().stream()
            .flatMap(List::stream)
            .anyMatch(p -> p.pool() && p.ioHeavy() && p.sloClass().equals(name));
    ContextCutoffs.Choice choice =
        ContextCutoffs.choose(
            name, ioHeavy, figures(cls), nodes, cls.getSpec().perPodCutoffRps, policy);
    SloClassStatus.Context next = toStatus(cls, choice, nodes, prev, counts.since());
    if (prev != null && json.valueToTree(prev).equals(json.valueToTree(next))) {
      return;
    }
    ClassStatusApply.apply(client, cls, FIELD_MANAGER, "context", json.valueToTree(next));
    // the first placement is no change of context; a class never measured has nothing to redo
    // (the automatic start's "no calibration" and the Uncalibrated condition speak for it)
    if (prev != null && prev.nodes != null && !prev.nodes.isEmpty() && !next.changes.isEmpty()) {
      ContextStability shift =
          prev.perPodCutoffRps == null || next.perPodCutoffRps == null
              ? null
              : ContextCutoffs.shift(name, prev.perPodCutoffRps, next.perPodCutoffRps, policy);
      event(
          cls,
          "ContextChanged",
          shift != null && shift.unstable() ? "Warning" : "Normal",
          String.join("; ", next.changes)
              + "; "
              + choice.notes().get(0)
              + (shift == null ? "" : "; " + shiftText(prev.perPodCutoffRps, shift)),
          now);
    }
    if (choice.recalibrationDue()
        && CalibrationStatusMapper.perPodCutoffMeasured(cls)
        && (prev == null || !Boolean.TRUE.equals(prev.recalibrationDue))) {
      event(
          cls,
          "RecalibrationDue",
          "Warning",
          choice.notes().get(0)
              + (auto
                  ? "; an automatic calibration starts once the pool is ready"
                  : "; automatic calibrations are off (isolato.calibration.auto): start one with"
                      + " POST /api/v1/slo-classes/"
                      + name
                      + "/calibrations"),
          now);
    }
  }

  static SloClassStatus.Context toStatus(
      SloClass cls,
      ContextCutoffs.Choice choice,
      SortedMap<String, ContextKey> nodes,
      SloClassStatus.Context prev,
      Instant since) {
    SloClassStatus.Context x = new SloClassStatus.Context();
    // a pool with no pod has no nodes: left out, since server-side apply turns an emptied map
    // into null, which the schema refuses (the whole write was a 422 and the old nodes stayed)
    if (!nodes.isEmpty()) {
      x.nodes = new TreeMap<>();
      nodes.forEach((node, key) -> x.nodes.put(node, key.label()));
    }
    x.match = choice.match();
    x.perPodCutoffRps = choice.perPodRps();
    x.measuredIn = choice.measuredIn();
    x.unmatched = choice.unmatched();
    x.stable = choice.stable();
    x.notes = choice.notes();
    x.recalibrationDue = choice.recalibrationDue();
    x.calibratedAt = cls.getStatus() == null ? null : cls.getStatus().calibratedAt;
    x.declaredPerPodRps = cls.getSpec().perPodCutoffRps;
    x.podCpuMillis = InContextCalibrations.podCpuMillis(cls);
    if (prev != null && Objects.equals(prev.nodes, x.nodes) && prev.since != null) {
      x.since = prev.since;
      x.changes = prev.changes == null ? List.of() : prev.changes;
    } else {
      x.since = since.toString();
      x.changes = prev == null || prev.nodes == null ? List.of() : changes(prev.nodes, nodes);
    }
    return x;
  }

  /** The figure's move with the change, and whether it is significant. */
  static String shiftText(double before, ContextStability shift) {
    return String.format(
        java.util.Locale.ROOT,
        "cut-off %.1f → %.1f req/s per pod (%+.1f%%, %s)",
        before,
        shift.cutoffRps(),
        shift.deviationPct(),
        shift.unstable() ? "significant" : "within the stability limit");
  }

  /** What changed between the pool's nodes before and now, in words. */
  static List<String> changes(Map<String, String> before, SortedMap<String, ContextKey> now) {
    List<String> out = new ArrayList<>();
    now.forEach(
        (node, key) -> {
          ContextKey was =
              before.containsKey(node) ? ContextKey.parse(before.get(node)).orElse(null) : null;
          if (was == null) {
            out.add("pool on node " + node + " (" + key.label() + ")");
          } else {
            key.changesFrom(was).forEach(c -> out.add("node " + node + ": " + c));
          }
        });
    before.keySet().stream()
        .filter(n -> !now.containsKey(n))
        .forEach(n -> out.add("pool left node " + n));
    return out;
  }

  private void event(SloClass cls, String reason, String type, String message, Instant now) {
    event(client, cls, reason, type, message, FIELD_MANAGER, now);
  }

  /** An Event on the class, and the same in the log; a refused Event is only logged. */
  static void event(
      KubernetesClient client,
      SloClass cls,
      String reason,
      String type,
      String message,
      String fieldManager,
      Instant now) {
    try {
      ObjectEvents.record(client, cls, reason, type, message, fieldManager, now);
    } catch (KubernetesClientException e) {
      log.warn("event {} on {}: {}", reason, cls.getMetadata().getName(), e.getMessage());
    }
    log.info("class {}: {} {}", cls.getMetadata().getName(), reason, message);
  }
}
