package dev.isolato.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isolato.slo.CapacityPlan;
import dev.isolato.tenancy.Fixtures;
import dev.isolato.tenancy.KedaSettings;
import dev.isolato.tenancy.NetworkPeers;
import dev.isolato.tenancy.Pool;
import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassStatus;
import dev.isolato.tenancy.TenantSpec;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScaledObjectsTest {
  static final KedaSettings SETTINGS = new KedaSettings("http://127.0.0.1:9091", 5, 300, 15, 120);
  final SloClass gold = Fixtures.sloClass("gold", 1, 4, 50);

  PoolObjects.Input pool(SloClass cls) {
    Pool pool =
        new Pool(
            cls.getMetadata().getName(),
            "isolato-c-gold",
            null,
            List.of(Fixtures.tenant("acme", "gold", 20, TenantSpec.Isolation.shared)));
    CapacityPlan plan = new CapacityPlan(2, Map.of("acme", 20.0), 65, "linear-baseline", List.of());
    return new PoolObjects.Input(
        cls,
        pool,
        plan,
        "{}",
        List.of("t"),
        new NetworkPeers(Map.of(), Map.of(), List.of(), "isolato-system", List.of()));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> spec(GenericKubernetesResource so) {
    return (Map<String, Object>) so.getAdditionalProperties().get("spec");
  }

  @SuppressWarnings("unchecked")
  static Map<String, String> trigger(GenericKubernetesResource so, int i) {
    return (Map<String, String>)
        ((List<Map<String, Object>>) spec(so).get("triggers")).get(i).get("metadata");
  }

  GenericKubernetesResource scaledObject(SloClass cls) {
    return ScaledObjects.forPool(pool(cls), SETTINGS);
  }

  @Test
  void theScaledObjectKeepsTheHpasNameOwnerAndPlannedFloor() {
    HasMetadata hpa = PoolObjects.autoscaler(pool(gold));
    assertThat(hpa).isInstanceOf(HorizontalPodAutoscaler.class);
    GenericKubernetesResource so = scaledObject(gold);
    assertThat(so.getApiVersion()).isEqualTo("keda.sh/v1alpha1");
    assertThat(so.getMetadata().getName()).isEqualTo(hpa.getMetadata().getName());
    assertThat(so.getMetadata().getNamespace()).isEqualTo("isolato-c-gold");
    assertThat(so.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(r -> assertThat(r.getUid()).isEqualTo("uid-gold"));
    assertThat(so.getMetadata().getLabels())
        .containsEntry(PoolObjects.MANAGED_BY, PoolObjects.MANAGER);
    assertThat(spec(so))
        .containsEntry("minReplicaCount", 2)
        .containsEntry("maxReplicaCount", 4)
        .containsEntry("pollingInterval", 5)
        .containsEntry("cooldownPeriod", 300)
        .containsEntry(
            "scaleTargetRef",
            Map.of("apiVersion", "apps/v1", "kind", "Deployment", "name", "saas-bench"));
  }

  @Test
  void theRateTriggerHoldsEachPodAtTheDeclaredCutoffTimesPivot() {
    Map<String, String> rate = trigger(scaledObject(gold), 0);
    // 50 req/s declared × pivot 65 %
    assertThat(rate)
        .containsEntry("threshold", "32.5")
        .containsEntry("serverAddress", "http://127.0.0.1:9091")
        .containsEntry(
            "query", "sum(rate(isolato_gate_requests_total{namespace=\"isolato-c-gold\"}[15s]))");
  }

  @Test
  void aMeasuredCutoffReplacesTheDeclaredOne() {
    SloClass measured = Fixtures.sloClass("gold", 1, 4, 50);
    measured.setStatus(new SloClassStatus());
    measured.getStatus().perPodCutoffRps = 80.0;
    assertThat(trigger(scaledObject(measured), 0)).containsEntry("threshold", "52");
  }

  @Test
  void theLatencyTriggerComparesTheClassPercentileWithItsTargetInSeconds() {
    Map<String, String> latency = trigger(scaledObject(gold), 1);
    assertThat(latency).containsEntry("threshold", "0.05");
    assertThat(latency.get("query"))
        .startsWith(
            "(histogram_quantile(0.95, sum by (le) (rate(isolato_gate_request_duration_seconds_bucket{namespace=\"isolato-c-gold\"}[15s])))")
        .endsWith(">= 0) or vector(0)");
  }

  @Test
  void thresholdsArePlainDecimals() {
    assertThat(ScaledObjects.number(1e-7)).isEqualTo("0");
    assertThat(ScaledObjects.number(123456789.5)).isEqualTo("123456789.5");
    assertThat(ScaledObjects.number(40)).isEqualTo("40");
  }

  @Test
  void badSettingsSayWhatIsWrong() {
    assertThatThrownBy(() -> new KedaSettings("127.0.0.1:9091", 5, 300, 15, 120))
        .hasMessageContaining("prometheus-url");
    assertThatThrownBy(() -> new KedaSettings("http://p:9090", 0, 300, 15, 120))
        .hasMessageContaining("polling-seconds >= 1");
  }
}
