package dev.isolato.calibration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TenantOrderTest {

  @Test
  void equalTenantsTakeTurns() {
    assertArrayEquals(
        new int[] {0, 1, 2, 3, 0, 1, 2, 3}, TenantOrder.interleave(new long[] {2, 2, 2, 2}));
  }

  @Test
  void unequalTenantsGetTheirExactCountsSpreadOut() {
    // the aggressive tenant at 4x its commitment, two abiding ones
    long[] counts = {400, 100, 100};
    int[] order = TenantOrder.interleave(counts);
    assertEquals(600, order.length);
    for (int t = 0; t < counts.length; t++) {
      int tenant = t;
      assertEquals(counts[t], Arrays.stream(order).filter(x -> x == tenant).count());
    }
    // every window of 6 requests holds 4 of the aggressive tenant's, 1 of each other's
    for (int start = 0; start + 6 <= order.length; start += 6) {
      int[] window = Arrays.copyOfRange(order, start, start + 6);
      assertEquals(4, Arrays.stream(window).filter(x -> x == 0).count(), "window at " + start);
    }
  }

  @Test
  void aTenantWithoutRequestsNeverSends() {
    int[] order = TenantOrder.interleave(new long[] {0, 3});
    assertArrayEquals(new int[] {1, 1, 1}, order);
    assertTrue(TenantOrder.interleave(new long[] {}).length == 0);
    assertThrows(IllegalArgumentException.class, () -> TenantOrder.interleave(new long[] {-1}));
  }
}
