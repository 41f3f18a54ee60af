package dev.isolato.calibration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestMixTest {
  private static RequestMix mix(String requests, String header) {
    return RequestMix.parse(
        List.of((requests == null ? RequestMix.SAAS_BENCH : requests).split(",")), header);
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
  void badEntriesAreNamed() {
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> mix("GET /get", null))
            .getMessage()
            .startsWith("'GET /get' is not METHOD:/path"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> mix("GET:/get*0", null))
            .getMessage()
            .contains("weight: must be between 1 and 100, was 0"));
    assertThrows(IllegalArgumentException.class, () -> mix("GET:get", null));
    assertThrows(IllegalArgumentException.class, () -> mix("BREW:/pot", null));
    assertThrows(IllegalArgumentException.class, () -> mix(null, "X Tenant"));
    assertThrows(
        IllegalArgumentException.class,
        () -> RequestMix.of(List.of(new RequestMix.Endpoint("GET", "/a b", 1)), ""));
    assertThrows(IllegalArgumentException.class, () -> RequestMix.of(List.of(), ""));
  }

  @Test
  void exportedAsTheRefereeReadsIt() {
    Map<String, Object> out = mix("GET:/get*2,POST:/post", "X-Tenant").exported();
    assertEquals(
        List.of(
            Map.of("method", "GET", "path", "/get", "weight", 2),
            Map.of("method", "POST", "path", "/post", "weight", 1)),
        out.get("endpoints"));
    assertEquals("X-Tenant", out.get("tenantHeader"));
    assertArrayEquals(new int[] {0, 1, 0}, (int[]) out.get("cycle"));
  }

  @Test
  void pathsMayHoldPrintableCharactersButNotTheTextFormsMarks() {
    assertTrue(RequestMix.endpointProblem("GET", "/a/{tenant}/b?x=1&y=%20", 1).isEmpty());
    assertTrue(RequestMix.endpointProblem("GET", "/a,b", 1).isPresent());
    assertTrue(RequestMix.endpointProblem("GET", "/a*", 1).isPresent());
    assertTrue(RequestMix.endpointProblem("GET", "/" + "a".repeat(256), 1).isPresent());
  }
}
