package dev.isolato.gatling.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestMixTest {
  private static RequestMix mix(String requests, String header) {
    Map<String, String> m = new HashMap<>();
    if (requests != null) {
      m.put("requests", requests);
    }
    if (header != null) {
      m.put("tenantHeader", header);
    }
    return RequestMix.of(new Settings(m));
  }

  @Test
  void defaultIsSaasBenchsRoute() {
    RequestMix mix = mix(null, null);
    RequestMix.Endpoint e = mix.pick(7);
    assertEquals("POST", e.method());
    assertEquals("/v1/tenants/t1/requests", e.path("t1"));
    assertEquals("", mix.tenantHeader());
  }

  @Test
  void everyTenantSendsTheWeightedMixInterleaved() {
    RequestMix mix = mix("get:/get*3,POST:/anything/{tenant}", "X-Tenant");
    assertArrayEquals(new int[] {0, 0, 1, 0}, mix.cycle());
    assertEquals("GET", mix.pick(0).method());
    assertEquals("POST", mix.pick(2).method());
    assertEquals("/anything/t2", mix.pick(6).path("t2"));
    assertEquals("X-Tenant", mix.tenantHeader());
    assertTrue(mix.pick(2).hasBody());
    // two tenants alternating: each one's own count picks the endpoint, so each gets 3:1
    int[] order = TenantOrder.interleave(new long[] {4, 4});
    long[] nth = RequestMix.nthOfTenant(order, 2);
    int[] posts = new int[2];
    for (int i = 0; i < order.length; i++) {
      posts[order[i]] += mix.pick(nth[i]).method().equals("POST") ? 1 : 0;
    }
    assertArrayEquals(new int[] {1, 1}, posts);
  }

  @Test
  void badEntriesNameTheProperty() {
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> mix("GET /get", null))
            .getMessage()
            .contains("isolato.requests: 'GET /get'"));
    assertThrows(IllegalArgumentException.class, () -> mix("GET:/get*0", null));
    assertThrows(IllegalArgumentException.class, () -> mix("GET:get", null));
    assertThrows(IllegalArgumentException.class, () -> mix(null, "X Tenant"));
  }
}
