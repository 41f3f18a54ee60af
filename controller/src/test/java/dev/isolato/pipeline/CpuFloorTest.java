package dev.isolato.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class CpuFloorTest {

  @Test
  void theWorkAboveIdleOnTheCoresIdleLeavesIsTheFloor() {
    // 1 × 100 pause pods on 2 cores (07:26 UTC run): 17.36 s with the planes at 85 % of the cores;
    // at an idle rate of 5 % the run caused 0.80 × 2 × 17.36 = 27.78 core-seconds, which the 1.9
    // cores idle leaves cannot do in less than 14.62 s: no reordering gains more than 15.8 %
    CpuFloor f = CpuFloor.of(17.36, 0.85, 0.05, 2).orElseThrow();
    assertThat(f.workCoreSeconds()).isCloseTo(27.776, within(1e-9));
    assertThat(f.floorSeconds()).isCloseTo(27.776 / 1.9, within(1e-9));
    assertThat(f.maxReduction()).isCloseTo(1 - 14.6189 / 17.36, within(1e-4));
  }

  @Test
  void aRunThatLeftCoresIdleCouldBeMuchShorter() {
    // a throttled control plane: 10 s at 20 % of 2 cores, idle 2 %
    CpuFloor f = CpuFloor.of(10, 0.20, 0.02, 2).orElseThrow();
    assertThat(f.maxReduction()).isGreaterThan(0.8);
  }

  @Test
  void aRunBusyOnlyAtItsIdleRateCausedNoWork() {
    CpuFloor f = CpuFloor.of(10, 0.03, 0.05, 2).orElseThrow();
    assertThat(f.workCoreSeconds()).isZero();
    assertThat(f.floorSeconds()).isZero();
    assertThat(f.maxReduction()).isEqualTo(1.0);
  }

  @Test
  void nothingMeasuredOrNoCoreLeftHasNoFloor() {
    assertThat(CpuFloor.of(10, 0, 0, 2)).isEmpty(); // a shared cluster: CPU not read
    assertThat(CpuFloor.of(0, 0.5, 0.1, 2)).isEmpty();
    assertThat(CpuFloor.of(10, 1.0, 1.0, 2)).isEmpty();
    assertThat(CpuFloor.of(10, 0.5, Double.NaN, 2)).isEmpty();
  }
}
