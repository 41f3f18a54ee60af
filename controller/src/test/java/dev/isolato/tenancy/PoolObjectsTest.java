package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import dev.isolato.slo.CapacityPlan;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolObjectsTest {
  final SloClass gold = Fixtures.sloClass("gold", 1, 4, 50);
  final Tenant acme = Fixtures.tenant("acme", "gold", 20, TenantSpec.Isolation.shared);
  final CapacityPlan plan =
      new CapacityPlan(3, Map.of("acme", 20.0), 150, "linear-baseline", List.of());

  List<HasMetadata> build(Pool pool) {
    return PoolObjects.build(
        new PoolObjects.Input(gold, pool, plan, "{}", List.of("new-token", "old-token"), PEERS));
  }

  static final NetworkPeers PEERS =
      new NetworkPeers(
          Map.of("isolato.dev/ingress", "true"),
          Map.of("app", "gateway"),
          List.of("192.0.2.0/24"),
          "isolato-system",
          List.of("10.250.0.1/32"));

  <T extends HasMetadata> T only(List<HasMetadata> objs, Class<T> type) {
    return objs.stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow();
  }

  @Test
  void aSharedPoolHasEveryObjectInTheClassNamespaceOwnedByTheClass() {
    List<HasMetadata> objs = build(new Pool("gold", "isolato-c-gold", null, List.of(acme)));
    assertThat(objs)
        .extracting(HasMetadata::getKind)
        .containsExactly(
            "Namespace",
            "PriorityClass",
            "ResourceQuota",
            "LimitRange",
            "NetworkPolicy",
            "NetworkPolicy",
            "Secret",
            "ConfigMap",
            "Deployment",
            "Service",
            "HorizontalPodAutoscaler");
    assertThat(objs)
        .allSatisfy(
            o ->
                assertThat(o.getMetadata().getOwnerReferences())
                    .singleElement()
                    .satisfies(
                        r -> {
                          assertThat(r.getUid()).isEqualTo("uid-gold");
                          assertThat(r.getController()).isTrue();
                        }));
    assertThat(objs)
        .filteredOn(o -> !o.getKind().equals("Namespace") && !o.getKind().equals("PriorityClass"))
        .allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isEqualTo("isolato-c-gold"));
  }

  @Test
  @DocClaim("docs/bring-your-service.md: Its 24Mi hold at most 1,024")
  @DocClaim("docs/bring-your-service.md: The gate's liveness probe is a TCP handshake")
  @DocClaim("docs/bring-your-service.md: Its readiness probe is asked on port 8079")
  @DocClaim("docs/architecture.md: readiness `/readyz` on the gate's probe port 8079")
  void theDeploymentIsGuaranteedQosWithThePlannedReplicas() {
    Deployment d =
        only(build(new Pool("gold", "isolato-c-gold", null, List.of(acme))), Deployment.class);
    var c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    var gate = d.getSpec().getTemplate().getSpec().getContainers().get(1);
    assertThat(d.getSpec().getReplicas()).isEqualTo(3);
    // the class's 500m / 128Mi pod: the gate's fixed 50m / 24Mi, the app the rest
    assertThat(c.getResources().getRequests())
        .isEqualTo(c.getResources().getLimits())
        .containsEntry("cpu", new Quantity("450m"))
        .containsEntry("memory", new Quantity("104Mi"));
    assertThat(gate.getResources().getRequests())
        .isEqualTo(gate.getResources().getLimits())
        .containsEntry("cpu", new Quantity("50m"))
        .containsEntry("memory", new Quantity("24Mi"));
    assertThat(c.getImage()).isEqualTo(Workload.DEFAULT_IMAGE);
    assertThat(c.getImagePullPolicy()).isEqualTo("IfNotPresent");
    assertThat(c.getArgs())
        .containsSubsequence("--listen", "127.0.0.1:8081")
        .containsSubsequence("--tenants", "/etc/saas-bench/table/tenants.json")
        .containsSubsequence("--admin-token-file", "/etc/saas-bench/admin/token");
    assertThat(c.getPorts()).as("only the gate is reachable").isNullOrEmpty();
    assertThat(c.getVolumeMounts())
        .extracting(m -> m.getMountPath())
        .containsExactly("/etc/saas-bench/table", "/etc/saas-bench/admin", "/data");
    assertThat(gate.getName()).isEqualTo("isolato-gate");
    assertThat(gate.getImage()).isEqualTo(Workload.GATE_IMAGE);
    assertThat(gate.getPorts())
        .singleElement()
        .satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(8080));
    assertThat(gate.getArgs())
        .containsExactly(
            "--listen",
            "0.0.0.0:8080",
            "--probe-listen",
            "0.0.0.0:8079",
            "--upstream",
            "127.0.0.1:8081",
            "--tenant-key",
            "path:/v1/tenants/",
            "--unknown-tenant",
            "reject",
            "--tenants",
            "/etc/saas-bench/table/tenants.json",
            "--admin-token-file",
            "/etc/saas-bench/admin/token",
            "--max-connections",
            "1024",
            "--forward-table");
    assertThat(gate.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(gate.getReadinessProbe().getHttpGet().getPort().getIntVal())
        .as("readiness on the probe port, not queued behind tenants")
        .isEqualTo(8079);
    assertThat(gate.getLivenessProbe().getHttpGet())
        .as("an HTTP liveness probe queues behind tenants' connections under overload")
        .isNull();
    assertThat(gate.getLivenessProbe().getTcpSocket().getPort().getIntVal()).isEqualTo(8080);
    assertThat(gate.getVolumeMounts())
        .extracting(m -> m.getMountPath())
        .containsExactly("/etc/saas-bench/table", "/etc/saas-bench/admin");
    assertThat(d.getSpec().getTemplate().getSpec().getPriorityClassName())
        .isEqualTo("isolato-c-gold");
    assertThat(d.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(d.getSpec().getSelector().getMatchLabels());
  }

  @Test
  void theImageComesFromTheClassWhenSet() {
    gold.getSpec().image = "localhost/other:1";
    Deployment d =
        only(build(new Pool("gold", "isolato-c-gold", null, List.of(acme))), Deployment.class);
    assertThat(d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
        .isEqualTo("localhost/other:1");
  }

  @Test
  @DocClaim("docs/gate.md: a class sets both in `spec.gate`")
  void theAppsShareAtTheGateComesFromTheClassWhenDeclared() {
    gold.getSpec().gate = new SloClassSpec.GateSpec();
    gold.getSpec().gate.maxAppRequests = 200;
    gold.getSpec().gate.queueTimeoutMs = 250;
    Deployment d =
        only(build(new Pool("gold", "isolato-c-gold", null, List.of(acme))), Deployment.class);
    assertThat(d.getSpec().getTemplate().getSpec().getContainers().get(1).getArgs())
        .containsSubsequence("--max-upstream-requests", "200")
        .containsSubsequence("--queue-timeout-ms", "250");
  }

  @Test
  void quotaAndLimitsFollowTheClassShapeAndCeiling() {
    List<HasMetadata> objs = build(new Pool("gold", "isolato-c-gold", null, List.of(acme)));
    ResourceQuota q = only(objs, ResourceQuota.class);
    // 4 replicas + 1 surge pod of 500m / 128Mi
    assertThat(q.getSpec().getHard().get("pods")).isEqualTo(new Quantity("5"));
    assertThat(Quantity.getAmountInBytes(q.getSpec().getHard().get("limits.cpu")))
        .isEqualByComparingTo("2.5");
    assertThat(Quantity.getAmountInBytes(q.getSpec().getHard().get("requests.memory")))
        .isEqualByComparingTo(String.valueOf(5L * 128 * 1024 * 1024));
    LimitRange lr = only(objs, LimitRange.class);
    assertThat(lr.getSpec().getLimits().get(0).getDefault())
        .isEqualTo(lr.getSpec().getLimits().get(0).getDefaultRequest());
  }

  @Test
  void podsRunTheSizeThePlanChoseAndTheQuotaFitsTheLargestCandidate() {
    gold.getSpec().resources.cpuCandidates = List.of("250m", "1");
    CapacityPlan sized =
        new CapacityPlan(3, Map.of("acme", 20.0), 150, "linear-fallback", List.of(), 250L);
    List<HasMetadata> objs =
        PoolObjects.build(
            new PoolObjects.Input(
                gold,
                new Pool("gold", "isolato-c-gold", null, List.of(acme)),
                sized,
                "{}",
                List.of("t"),
                PEERS));

    var c = only(objs, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(c.getResources().getRequests())
        .isEqualTo(c.getResources().getLimits())
        .containsEntry("cpu", new Quantity("200m"));
    assertThat(only(objs, LimitRange.class).getSpec().getLimits().get(0).getMax())
        .containsEntry("cpu", new Quantity("250m"));
    // 5 pods of the largest candidate (1 core), so that a change of size is never blocked by the
    // quota
    assertThat(
            Quantity.getAmountInBytes(
                only(objs, ResourceQuota.class).getSpec().getHard().get("limits.cpu")))
        .isEqualByComparingTo("5");
    // without a choice the declared cpu stays (500m, of which the app gets all but the gate's 50m)
    var declared =
        only(build(new Pool("gold", "isolato-c-gold", null, List.of(acme))), Deployment.class)
            .getSpec()
            .getTemplate()
            .getSpec()
            .getContainers()
            .get(0);
    assertThat(declared.getResources().getLimits().get("cpu")).isEqualTo(new Quantity("450m"));
  }

  @Test
  void theAutoscalerUsesThePivotPointAndThePlanAsFloor() {
    HorizontalPodAutoscaler h =
        only(
            build(new Pool("gold", "isolato-c-gold", null, List.of(acme))),
            HorizontalPodAutoscaler.class);
    assertThat(h.getSpec().getMinReplicas()).isEqualTo(3);
    assertThat(h.getSpec().getMaxReplicas()).isEqualTo(4);
    assertThat(h.getSpec().getMetrics().get(0).getResource().getTarget().getAverageUtilization())
        .isEqualTo(65);
  }

  @Test
  void aDedicatedPoolIsLabelledWithItsTenant() {
    List<HasMetadata> objs =
        build(new Pool("gold", PoolNames.dedicatedNamespace("acme"), "acme", List.of(acme)));
    assertThat(objs.get(0).getMetadata().getName()).isEqualTo("isolato-t-acme");
    assertThat(objs.get(0).getMetadata().getLabels())
        .containsEntry("isolato.dev/tenant", "acme")
        .containsEntry("isolato.dev/isolation", "dedicated");
  }

  @Test
  void theNamespaceEnforcesPodSecurityRestricted() {
    var ns = build(new Pool("gold", "isolato-c-gold", null, List.of(acme))).get(0);
    assertThat(ns.getMetadata().getLabels())
        .containsEntry("pod-security.kubernetes.io/enforce", "restricted")
        .containsEntry("pod-security.kubernetes.io/warn", "restricted")
        .containsEntry("pod-security.kubernetes.io/audit", "restricted")
        .containsEntry("app.kubernetes.io/managed-by", "isolato");
  }

  @Test
  void podsRunNonRootReadOnlyWithoutCapabilitiesOrServiceAccountToken() {
    var pod =
        only(build(new Pool("gold", "isolato-c-gold", null, List.of(acme))), Deployment.class)
            .getSpec()
            .getTemplate()
            .getSpec();
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    var sc = pod.getContainers().get(0).getSecurityContext();
    assertThat(sc.getReadOnlyRootFilesystem()).isTrue();
    assertThat(sc.getAllowPrivilegeEscalation()).isFalse();
    assertThat(sc.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(sc.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
  }

  @Test
  void networkPoliciesDenyAllButTheServicePortFromIngressAndController() {
    List<NetworkPolicy> policies =
        build(new Pool("gold", "isolato-c-gold", null, List.of(acme))).stream()
            .filter(NetworkPolicy.class::isInstance)
            .map(NetworkPolicy.class::cast)
            .toList();
    NetworkPolicy deny = policies.get(0);
    assertThat(deny.getSpec().getPodSelector().getMatchLabels()).isNullOrEmpty();
    assertThat(deny.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
    assertThat(deny.getSpec().getIngress()).isNullOrEmpty();
    assertThat(deny.getSpec().getEgress()).isNullOrEmpty();
    NetworkPolicy allow = policies.get(1);
    Deployment d =
        only(build(new Pool("gold", "isolato-c-gold", null, List.of(acme))), Deployment.class);
    assertThat(allow.getSpec().getPodSelector().getMatchLabels())
        .isEqualTo(d.getSpec().getSelector().getMatchLabels());
    var rule = allow.getSpec().getIngress().get(0);
    assertThat(rule.getPorts())
        .singleElement()
        .satisfies(p -> assertThat(p.getPort().getIntVal()).isEqualTo(8080));
    var from = rule.getFrom();
    assertThat(from).hasSize(4);
    assertThat(from.get(0).getNamespaceSelector().getMatchLabels())
        .containsExactly(Map.entry("isolato.dev/ingress", "true"));
    assertThat(from.get(0).getPodSelector().getMatchLabels())
        .containsExactly(Map.entry("app", "gateway"));
    assertThat(from.get(1).getIpBlock().getCidr()).isEqualTo("192.0.2.0/24");
    assertThat(from.get(2).getNamespaceSelector().getMatchLabels())
        .containsExactly(Map.entry("kubernetes.io/metadata.name", "isolato-system"));
    assertThat(from.get(3).getIpBlock().getCidr()).isEqualTo("10.250.0.1/32");
  }

  @Test
  void theAdminSecretListsEveryTokenOneALineNewFirst() {
    var secret =
        only(
            build(new Pool("gold", "isolato-c-gold", null, List.of(acme))),
            io.fabric8.kubernetes.api.model.Secret.class);
    String file =
        new String(
            java.util.Base64.getDecoder().decode(secret.getData().get("token")),
            java.nio.charset.StandardCharsets.UTF_8);
    assertThat(file).isEqualTo("new-token\nold-token\n");
  }

  @Test
  void aWorkloadClassRunsTheProvidersContainerBehindTheGateWithIsolatosSettings() {
    gold.getSpec().workload = WorkloadFixtures.httpbin();
    gold.getSpec().tenantKey = "header:X-Org";
    gold.getSpec().unknownTenant = SloClassSpec.UnknownTenant.pass;
    WorkloadTemplate.AppSecurityContext own = new WorkloadTemplate.AppSecurityContext();
    own.runAsUser = 1000L;
    gold.getSpec().workload.containers.get(0).securityContext = own;
    var pod =
        only(build(new Pool("gold", "isolato-c-gold", null, List.of(acme))), Deployment.class)
            .getSpec()
            .getTemplate()
            .getSpec();
    assertThat(pod.getContainers())
        .extracting(c -> c.getName())
        .containsExactly("httpbin", "isolato-gate");
    var app = pod.getContainers().get(0);
    assertThat(app.getImage()).isEqualTo("localhost/isolato/go-httpbin:dev");
    assertThat(app.getArgs()).containsExactly("-port", "8081");
    assertThat(app.getResources().getRequests())
        .isEqualTo(app.getResources().getLimits())
        .containsEntry("cpu", new Quantity("450m"));
    assertThat(app.getReadinessProbe().getTcpSocket().getPort().getIntVal())
        .as("a TCP check of the app port when the template declares no probe")
        .isEqualTo(8081);
    var sc = app.getSecurityContext();
    assertThat(sc.getRunAsUser()).isEqualTo(1000L);
    assertThat(sc.getRunAsNonRoot()).isTrue();
    assertThat(sc.getAllowPrivilegeEscalation()).isFalse();
    assertThat(sc.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(sc.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(pod.getVolumes()).extracting(v -> v.getName()).containsExactly("table", "admin");
    assertThat(pod.getContainers().get(1).getArgs())
        .containsSubsequence("--upstream", "127.0.0.1:8081")
        .containsSubsequence("--tenant-key", "header:X-Org")
        .containsSubsequence("--unknown-tenant", "pass")
        .doesNotContain("--forward-table");
  }
}
