package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.isolato.DocClaim;
import dev.isolato.incontext.InContextCalibrations;
import dev.isolato.tenancy.SloClass;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 34 item 4 on a real kube-apiserver: the plan rests on the figure measured in the context
 * the pool runs in — not the newest figure (measured on another machine), not before a pod is
 * placed — and a new neighbour class on the pool's node makes a recalibration due: the conservative
 * fallback, condition {@code Calibrated=False ContextChanged}, Events, and with automatic
 * calibrations on, a calibration started for the reason. No kubelet runs: the pods are written
 * here, bound to their node.
 */
class ContextIT extends ItBase {
  static final String CLS = "ctx";
  static final String NEIGHBOUR = "ctxn";
  static final String NODE = "it-ctx-node";
  static final String CPU = "IT CPU 3000";
  static final String HERE = "in-context:" + CPU;

  static String runJson(String runId, String label, Map<String, Object> more, double perPod)
      throws Exception {
    return runJson(runId, CLS, label, "250m", more, perPod);
  }

  @Test
  @DocClaim(
      "docs/calibration.md: there is no context to match, and the plan rests on the newest figure as before")
  @DocClaim(
      "docs/calibration.md: the `Calibrated` condition turns False with reason `ContextChanged`")
  @DocClaim(
      "docs/calibration.md: Events `ContextChanged` (what changed, per node) and `RecalibrationDue` say so")
  @DocClaim(
      "docs/calibration.md: A class never measured stays `Uncalibrated` on its declared figure")
  @DocClaim(
      "docs/calibration.md: a context with no figure starts an in-context calibration by itself")
  @DocClaim(
      "docs/calibration.md: counts its cluster-wide pod LISTs over the passes that see a new neighbour")
  @DocClaim(
      "docs/calibration.md: `status.context.since` is when the context that counts was first seen")
  void thePlanUsesTheFigureOfThePoolsContextAndANewNeighbourMakesARecalibrationDue()
      throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson(CLS, 8, 40, false)).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("ctx-1", CLS, 20, "shared")).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/slo-classes", classJson(NEIGHBOUR, 2, 40, false)).status())
        .isEqualTo(201);
    await().atMost(Duration.ofSeconds(30)).until(() -> deployment(CLS) != null);
    await().atMost(Duration.ofSeconds(30)).until(() -> deployment(NEIGHBOUR) != null);

    // measured in context on NODE (an in-context run names its node), then on another machine
    assertThat(
            api(
                    "POST",
                    "/api/v1/calibrations",
                    runJson("ctx-here", HERE, Map.of("node", NODE, "cpuModel", CPU), 60))
                .status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/calibrations", runJson("ctx-far", "alone", Map.of(), 150)))
        .extracting(Reply::status)
        .isEqualTo(201);
    double here = cutoff(HERE);
    double far = cutoff("alone");
    assertThat(here).isLessThan(far).isGreaterThan(40);

    // no pod placed: no context to match, the newest figure as before
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              JsonNode st = status(CLS);
              assertThat(st.at("/context/match").asText()).isEqualTo("Unplaced");
              assertThat(st.at("/plan/perPodCutoffRps").asDouble()).isEqualTo(far);
            });

    kube.nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(NODE)
                .addToLabels("kubernetes.io/hostname", NODE)
                .endMetadata()
                .build())
        .create();
    kube.resource(podOf(CLS, "ctx-pod")).create();
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              JsonNode st = status(CLS);
              assertThat(st.at("/context/match").asText()).isEqualTo("Matched");
              assertThat(st.at("/context/nodes/" + NODE).asText()).isEqualTo(HERE);
              assertThat(st.at("/context/perPodCutoffRps").asDouble()).isEqualTo(here);
              assertThat(st.at("/plan/perPodCutoffRps").asDouble())
                  .as("the figure of the pool's context, not the newest one")
                  .isEqualTo(here);
              assertThat(condition(st, "Calibrated").get("message").asText())
                  .endsWith("in the context the pool runs in, " + HERE);
            });
    assertThat(status(CLS).at("/inContext").isMissingNode()).isTrue();

    // another class's pod lands on the node: no figure was measured in that context
    long podLists = podListsClusterWide();
    kube.resource(podOf(NEIGHBOUR, "ctxn-pod")).create();
    String crowded = HERE + "+" + NEIGHBOUR;
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              JsonNode st = status(CLS);
              assertThat(st.at("/context/match").asText()).isEqualTo("NoMatch");
              assertThat(st.at("/context/recalibrationDue").asBoolean()).isTrue();
              assertThat(st.at("/context/unmatched/0").asText()).isEqualTo(crowded);
              assertThat(st.at("/context/changes/0").asText())
                  .isEqualTo("node " + NODE + ": neighbour class " + NEIGHBOUR + " came");
              assertThat(st.at("/plan/perPodCutoffRps").asDouble())
                  .as("the lowest of the declared figure and those measured elsewhere")
                  .isEqualTo(40);
              JsonNode calibrated = condition(st, "Calibrated");
              assertThat(calibrated.get("status").asText()).isEqualTo("False");
              assertThat(calibrated.get("reason").asText()).isEqualTo("ContextChanged");
              assertThat(calibrated.get("message").asText())
                  .startsWith("no cut-off measured in " + crowded);
            });
    assertThat(podListsClusterWide())
        .as(
            "the context watch saw the neighbour through its watch of the class pods: no"
                + " cluster-wide pod LIST in the passes since (the change took the settle time,"
                + " %s, so several passes ran)",
            CONTEXT_SETTLE)
        .isEqualTo(podLists);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(
                        kube.v1().events().inNamespace("default").list().getItems().stream()
                            .filter(e -> CLS.equals(e.getInvolvedObject().getName()))
                            .map(e -> e.getReason() + ": " + e.getMessage()))
                    .anyMatch(
                        m ->
                            m.startsWith("ContextChanged: node " + NODE)
                                && m.endsWith(
                                    String.format(
                                        java.util.Locale.ROOT,
                                        "cut-off %.1f → 40.0 req/s per pod (%+.1f%%, significant)",
                                        here,
                                        100 * (40 - here) / here)))
                    .anyMatch(
                        m ->
                            m.startsWith("RecalibrationDue: no cut-off measured in " + crowded)
                                && m.contains("automatic calibrations are off")));
    // the API server keeps an Event's time in whole seconds
    Instant seen =
        Instant.parse(status(CLS).at("/context/since").asText()).truncatedTo(ChronoUnit.SECONDS);
    assertThat(
            kube.v1().events().inNamespace("default").list().getItems().stream()
                .filter(
                    e ->
                        CLS.equals(e.getInvolvedObject().getName())
                            && "ContextChanged".equals(e.getReason()))
                .map(e -> Instant.parse(e.getLastTimestamp())))
        .as("the new context counted once it had held for the settle time since first seen")
        .singleElement()
        .satisfies(at -> assertThat(at).isAfterOrEqualTo(seen.plus(CONTEXT_SETTLE)));
    assertThat(status(CLS).at("/inContext").isMissingNode())
        .as("automatic calibrations are off: none started")
        .isTrue();
    JsonNode neighbour = status(NEIGHBOUR);
    assertThat(neighbour.at("/context/match").asText()).isEqualTo("NoMatch");
    assertThat(condition(neighbour, "Calibrated").get("reason").asText())
        .as("a class never measured stays Uncalibrated, with no recalibration Event")
        .isEqualTo("Uncalibrated");
    assertThat(
            kube.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> NEIGHBOUR.equals(e.getInvolvedObject().getName()))
                .map(e -> e.getReason()))
        .doesNotContain("RecalibrationDue", "ContextChanged");

    // with automatic calibrations on, the change starts one (the pool's ready pod copied)
    markReady(pool(CLS));
    InContextCalibrations auto = autoCalibrations();
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              auto.pass(List.of(kube.resources(SloClass.class).withName(CLS).get()), Instant.now());
              assertThat(status(CLS).at("/inContext/reason").asText())
                  .isEqualTo(
                      "context changed: no cut-off measured where the pool runs (" + crowded + ")");
            });
    auto.cleanUp(status(CLS).at("/inContext/id").asText(), pool(CLS));
    kube.pods().inNamespace(pool(CLS)).withName("ctx-pod").withGracePeriod(0).delete();
    kube.pods().inNamespace(pool(NEIGHBOUR)).withName("ctxn-pod").withGracePeriod(0).delete();
  }

  /**
   * Cluster-wide LISTs of pods the API server has answered, by any client (its own counter): the
   * context watch must not list the class pods each pass.
   */
  static long podListsClusterWide() {
    return kube.raw("/metrics")
        .lines()
        .filter(
            l ->
                l.startsWith("apiserver_request_total{")
                    && l.contains("resource=\"pods\"")
                    && l.contains("scope=\"cluster\"")
                    && l.contains("verb=\"LIST\""))
        .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  /** A serving pod of {@code cls}'s pool (its Deployment's template) on {@link #NODE}. */
  static Pod podOf(String cls, String name) {
    var template = deployment(cls).getSpec().getTemplate();
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(pool(cls))
        .withLabels(template.getMetadata().getLabels())
        .endMetadata()
        .withSpec(template.getSpec())
        .editSpec()
        .withNodeName(NODE)
        .endSpec()
        .build();
  }

  double cutoff(String context) throws Exception {
    for (JsonNode p : status(CLS).get("cutoffs")) {
      if (context.equals(p.get("context").asText())) {
        return p.get("perPodRps").asDouble();
      }
    }
    throw new AssertionError("no cut-off of context " + context);
  }

  JsonNode status(String cls) throws Exception {
    return api("GET", "/api/v1/slo-classes/" + cls, null).body().get("status");
  }

  static JsonNode condition(JsonNode status, String type) {
    for (JsonNode c : status.get("conditions")) {
      if (type.equals(c.get("type").asText())) {
        return c;
      }
    }
    throw new AssertionError("no condition " + type + " in " + status.get("conditions"));
  }
}
