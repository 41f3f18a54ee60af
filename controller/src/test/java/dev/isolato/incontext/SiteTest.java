package dev.isolato.incontext;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SiteTest {
  static Site site(String node, String cpu, Map<String, Integer> neighbours, double busy) {
    return new Site(node, cpu, 2400.0, neighbours, Map.of(), busy, List.of());
  }

  @Test
  void theLabelNamesTheCpuAndTheNeighbourClassesNotTheNode() {
    Site s = site("n1", "Intel Xeon", Map.of("silver", 1, "bronze", 2), 40);
    assertThat(s.label()).isEqualTo("in-context:Intel Xeon+bronze,silver");
    assertThat(site("n1", null, Map.of(), 0).label()).isEqualTo("in-context:cpu?");
  }

  @Test
  void sameCpuAndNeighbourClassesIsTheSameContextWhateverTheLoad() {
    Site a = site("n1", "Intel Xeon", Map.of("bronze", 1), 20);
    assertThat(a.sameContext(site("n2", " Intel Xeon ", Map.of("bronze", 3), 90))).isTrue();
    assertThat(a.sameContext(site("n1", "AMD EPYC", Map.of("bronze", 1), 20))).isFalse();
    assertThat(a.sameContext(site("n1", "Intel Xeon", Map.of("bronze", 1, "io", 1), 20))).isFalse();
    assertThat(a.sameContext(null)).isFalse();
  }
}
