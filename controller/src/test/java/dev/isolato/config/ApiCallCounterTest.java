package dev.isolato.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ApiCallCounterTest {
  @Test
  void leaseRenewalsAndReviewsAreNotObjectWrites() {
    assertThat(ApiCallCounter.kind("GET", "/api/v1/namespaces")).isEqualTo("read");
    assertThat(ApiCallCounter.kind("PATCH", "/api/v1/namespaces/x/configmaps/t"))
        .isEqualTo("write");
    assertThat(ApiCallCounter.kind("PATCH", "/apis/coordination.k8s.io/v1/namespaces/s/leases/l"))
        .isEqualTo("lease");
    assertThat(ApiCallCounter.kind("POST", "/apis/authentication.k8s.io/v1/tokenreviews"))
        .isEqualTo("review");
  }
}
