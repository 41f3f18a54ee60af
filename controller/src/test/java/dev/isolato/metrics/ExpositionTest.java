package dev.isolato.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpositionTest {

  @Test
  void countersAreSummedOverLabelSetsOfTheExactMetric() {
    String text =
        """
        # TYPE saasbench_requests_total counter
        saasbench_requests_total{tenant="a",code="200"} 10
        saasbench_requests_total{tenant="b",code="429"} 5.5
        saasbench_requests_total_extra 100
        saasbench_in_flight_requests 3
        saasbench_requests_total{tenant="c",code="200"} garbage
        """;
    assertThat(Exposition.sum(text, "saasbench_requests_total")).isEqualTo(15.5);
    assertThat(Exposition.sum(text, "saasbench_in_flight_requests")).isEqualTo(3);
    assertThat(Exposition.sum(text, "absent")).isZero();
  }

  @Test
  void onlyLabelSetsWithEveryAskedLabelCount() {
    String text =
        """
        kubelet_runtime_operations_duration_seconds_sum{operation_type="run_podsandbox"} 11.8
        kubelet_runtime_operations_duration_seconds_sum{operation_type="start_container"} 17.9
        storage_operation_duration_seconds_sum{operation_name="volume_mount",volume_plugin="a"} 0.5
        storage_operation_duration_seconds_sum{operation_name="volume_mount",volume_plugin="b"} 0.25
        storage_operation_duration_seconds_sum{operation_name="volume_unmount",volume_plugin="b"} 9
        x{a="quote \\" , b=\\"x\\"",b="y"} 2 1700000000000
        x{a="y"} 3
        x 4
        """;
    String op = "kubelet_runtime_operations_duration_seconds_sum";
    assertThat(Exposition.sum(text, op, Map.of("operation_type", "run_podsandbox")))
        .isEqualTo(11.8);
    assertThat(Exposition.sum(text, op)).isEqualTo(29.7);
    assertThat(
            Exposition.sum(
                text,
                "storage_operation_duration_seconds_sum",
                Map.of("operation_name", "volume_mount")))
        .isEqualTo(0.75);
    // an escaped quote inside a value does not end it; a timestamp after the value is not read
    assertThat(Exposition.sum(text, "x", Map.of("b", "y"))).isEqualTo(2);
    assertThat(Exposition.sum(text, "x", Map.of("a", "y"))).isEqualTo(3);
    // a sample without labels has none of the asked ones
    assertThat(Exposition.sum(text, "x", Map.of("a", "absent"))).isZero();
    assertThat(Exposition.sum("x{a=\"unterminated 1\n", "x", Map.of())).isZero();
  }
}
