package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TablePusherTest {
  static EndpointSlice slice(Map<String, String> labels, boolean ready, String... ips) {
    return new EndpointSliceBuilder()
        .withNewMetadata()
        .withName("s")
        .withNamespace("isolato-c-gold")
        .withLabels(labels)
        .endMetadata()
        .withAddressType("IPv4")
        .addToEndpoints(
            new EndpointBuilder()
                .withAddresses(ips)
                .withNewConditions()
                .withReady(ready)
                .endConditions()
                .withNewTargetRef()
                .withKind("Pod")
                .withName("p-" + ips[0])
                .endTargetRef()
                .build())
        .addNewPort()
        .withName("http")
        .withPort(8080)
        .endPort()
        .build();
  }

  static Map<String, String> labels(String service, String managedBy) {
    Map<String, String> m = new HashMap<>();
    m.put(TablePusher.SERVICE_NAME, service);
    if (managedBy != null) {
      m.put(TablePusher.SLICE_MANAGED_BY, managedBy);
    }
    return m;
  }

  @Test
  void theReadyAddressesOfThePoolServicesSlicesThatKubernetesMade() {
    Map<String, String> ours = labels(Workload.NAME, TablePusher.SLICE_CONTROLLER);
    assertThat(
            TablePusher.readyEndpoints(
                List.of(slice(ours, true, "10.0.0.1"), slice(ours, true, "fd00::2"))))
        .containsExactly(
            new TablePusher.Target("10.0.0.1:8080", "p-10.0.0.1"),
            new TablePusher.Target("[fd00::2]:8080", "p-fd00::2"));
    assertThat(TablePusher.readyEndpoints(List.of(slice(ours, false, "10.0.0.3")))).isEmpty();
  }

  @Test
  void aSliceAnotherWriterMadeOrOfAnotherServiceGetsNothingWhateverSelectedIt() {
    assertThat(
            TablePusher.readyEndpoints(
                List.of(
                    slice(labels(Workload.NAME, null), true, "10.0.0.4"),
                    slice(labels(Workload.NAME, "someone-else"), true, "10.0.0.5"),
                    slice(labels("other", TablePusher.SLICE_CONTROLLER), true, "10.0.0.6"))))
        .isEmpty();
  }
}
