package dev.isolato.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isolato.DocClaim;
import dev.isolato.config.IsolatoProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ParameterCatalogTest {

  static final Path GO_MODULES = Path.of(System.getProperty("user.home"), "go/pkg/mod");
  static final Path REPO = Path.of("").toAbsolutePath().getParent();

  @Test
  @DocClaim(
      "docs/operations.md: | component | setting | Kubernetes 1.34 default | what it limits | suggested |")
  void everyKubernetesDefaultIsWhereTheCatalogSaysInTheV1344Source() throws IOException {
    Assumptions.assumeTrue(
        Files.isDirectory(GO_MODULES.resolve("k8s.io/kubernetes@v1.34.4")),
        "the Kubernetes v1.34.4 module cache (built by localkube) is not on this machine");
    int checked = 0;
    for (Parameter p : ParameterCatalog.KUBERNETES_1_34) {
      if (p.source().startsWith("k8s.io/")) {
        String[] fileLine = p.source().split(":", -1);
        List<String> lines = Files.readAllLines(GO_MODULES.resolve(fileLine[0]));
        assertThat(squash(lines.get(Integer.parseInt(fileLine[1]) - 1)))
            .as(p.id())
            .contains(squash(p.evidence()));
        checked++;
      }
    }
    assertThat(checked).isGreaterThanOrEqualTo(20);
  }

  @Test
  void isolatosOwnDefaultsAreWhereTheCatalogSays() throws IOException {
    for (Parameter p : ParameterCatalog.KUBERNETES_1_34) {
      if (!p.source().isEmpty() && !p.source().startsWith("k8s.io/")) {
        // white space apart: a formatter may break the evidence's line
        assertThat(Files.readString(REPO.resolve(p.source())).replaceAll("\\s+", ""))
            .as(p.id())
            .contains(p.evidence().replaceAll("\\s+", ""));
      }
    }
  }

  @Test
  @DocClaim("docs/operations.md: `poolApplyThreads`, default 8)")
  void thePoolApplyThreadsDefaultIsOneValueInTheCatalogTheControllerAndTheChart()
      throws IOException {
    int dflt = IsolatoProperties.DEFAULT_POOL_APPLIERS;
    assertThat(dflt).isEqualTo(8);
    assertThat(ParameterCatalog.byId("isolato.pool-apply-threads").orElseThrow().limit())
        .hasValue(dflt);
    assertThat(new IsolatoProperties(null, null, false, 0, 0, null, null, null).poolApplyThreads())
        .isEqualTo(dflt);
    assertThat(Files.readString(REPO.resolve("controller/src/main/resources/application.yaml")))
        .contains("pool-apply-threads: " + dflt);
    assertThat(Files.readString(REPO.resolve("helm/isolato/values.yaml")))
        .contains("poolApplyThreads: " + dflt);
  }

  @Test
  void startingSettingsAreLocalkubesThroughputLimitsInTheOrderGiven() {
    Map<Parameter, Double> start =
        ParameterCatalog.localkubeSettings(
            "controller-manager.kube-api-qps=20, scheduler.kube-api-burst = 7.5");
    assertThat(start.keySet())
        .extracting(Parameter::id)
        .containsExactly("controller-manager.kube-api-qps", "scheduler.kube-api-burst");
    assertThat(start.values()).containsExactly(20.0, 7.5);
  }

  @Test
  void aStartingSettingThatIsNoLocalkubeLimitOrNoPositiveNumberIsRefusedByName() {
    // an Isolato property, a reported-only constant, an unknown key, no value, zero, twice
    assertThatThrownBy(() -> ParameterCatalog.localkubeSettings("isolato.client-qps=50"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'isolato.client-qps=50' is not KEY=VALUE with KEY a throughput")
        .hasMessageContaining("controller-manager.kube-api-qps");
    assertThatThrownBy(
            () -> ParameterCatalog.localkubeSettings("controller-manager.BurstReplicas=100"))
        .hasMessageContaining("'controller-manager.BurstReplicas=100' is not KEY=VALUE");
    assertThatThrownBy(() -> ParameterCatalog.localkubeSettings("scheduler.qps=5"))
        .hasMessageContaining("'scheduler.qps=5' is not");
    assertThatThrownBy(() -> ParameterCatalog.localkubeSettings("scheduler.kube-api-qps"))
        .hasMessageContaining("scheduler.kube-api-qps needs a positive number, e.g.")
        .hasMessageContaining("scheduler.kube-api-qps=50");
    for (String bad : List.of("0", "-1", "NaN", "Infinity", "fast")) {
      assertThatThrownBy(() -> ParameterCatalog.localkubeSettings("scheduler.kube-api-qps=" + bad))
          .as(bad)
          .hasMessageContaining("needs a positive number");
    }
    assertThatThrownBy(
            () ->
                ParameterCatalog.localkubeSettings(
                    "scheduler.kube-api-qps=5,scheduler.kube-api-qps=6"))
        .hasMessage("scheduler.kube-api-qps is given twice");
  }

  @Test
  void coversTable5WithTheSameStepObjectAndValue() {
    // Table 5 (Kubernetes 1.27); every value is unchanged in 1.34.
    record Row(String id, Step step, Parameter.Counted counts, double value) {}
    List<Row> table5 =
        List.of(
            new Row(
                "apiserver.max-mutating-requests-inflight",
                Step.S3_WRITE,
                Parameter.Counted.CONTAINERS,
                200),
            new Row(
                "controller-manager.SlowStartInitialBatchSize",
                Step.S3_CREATE_POD_OBJECT,
                Parameter.Counted.PODS_PER_WORKLOAD,
                1),
            new Row("controller-manager.kube-api-qps", Step.S3_WRITE, Parameter.Counted.PODS, 20),
            new Row("scheduler.kube-api-qps", Step.S4_WRITE, Parameter.Counted.PODS, 50),
            new Row(
                "kubelet.registryPullQPS", Step.S5_MOUNT, Parameter.Counted.CONTAINERS_PER_NODE, 5),
            new Row(
                "kubelet.maxParallelImagePulls",
                Step.S5_MOUNT,
                Parameter.Counted.CONTAINERS_PER_NODE,
                1),
            new Row(
                "kubelet.eventRecordQPS", Step.S6_WRITE, Parameter.Counted.CONTAINERS_PER_NODE, 50),
            new Row(
                "kubelet.kubeAPIQPS", Step.S6_WRITE, Parameter.Counted.CONTAINERS_PER_NODE, 50));
    for (Row r : table5) {
      Parameter p = ParameterCatalog.byId(r.id()).orElseThrow();
      assertThat(p.steps()).as(r.id()).contains(r.step());
      assertThat(p.counts()).as(r.id()).isEqualTo(r.counts());
      assertThat(p.limit()).as(r.id()).hasValue(r.value());
    }
  }

  @Test
  void idsAreUniqueAndLocalkubeKeysAreLocalkubes() throws IOException {
    List<Parameter> all = ParameterCatalog.KUBERNETES_1_34;
    assertThat(all.stream().map(Parameter::id).collect(Collectors.toSet())).hasSize(all.size());
    Set<String> keys =
        Files.readAllLines(REPO.resolve("localkube/config/defaults.conf")).stream()
            .filter(l -> l.contains("=") && !l.startsWith("#"))
            .map(l -> l.substring(0, l.indexOf('=')).trim())
            .collect(Collectors.toSet());
    for (Parameter p : all) {
      if (p.apply().where() == Parameter.Apply.Where.LOCALKUBE) {
        assertThat(keys).as("localkube key of " + p.id()).contains(p.apply().how());
      }
    }
  }

  @Test
  void everyBriefedParameterIsCatalogued() {
    Map<String, Stage> expected =
        Map.ofEntries(
            Map.entry("controller-manager.concurrent-deployment-syncs", Stage.S2),
            Map.entry("controller-manager.concurrent-replicaset-syncs", Stage.S3),
            Map.entry("apiserver.max-requests-inflight", Stage.S2),
            Map.entry("kubelet.kubeAPIBurst", Stage.S6),
            Map.entry("kubelet.serializeImagePulls", Stage.S5),
            Map.entry("scheduler.parallelism", Stage.S4),
            Map.entry("scheduler.percentageOfNodesToScore", Stage.S4),
            Map.entry("isolato.client-qps", Stage.S1),
            Map.entry("isolato.reconcile-threads", Stage.S1),
            Map.entry("isolato.pool-apply-threads", Stage.S1),
            Map.entry("isolato.readiness.period-seconds", Stage.S7));
    expected.forEach(
        (id, stage) ->
            assertThat(ParameterCatalog.byId(id).orElseThrow().steps())
                .as(id)
                .anyMatch(s -> s.stage() == stage));
  }

  private static String squash(String s) {
    return s.replaceAll("\\s+", " ").trim();
  }
}
