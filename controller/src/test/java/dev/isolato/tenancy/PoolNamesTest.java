package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PoolNamesTest {
  @Test
  void sharedAndDedicatedNamespacesCannotCollide() {
    // before: class a-b and the dedicated tenant b of class a both mapped to isolato-a-b
    assertThat(PoolNames.sharedNamespace("a-b")).isEqualTo("isolato-c-a-b");
    assertThat(PoolNames.dedicatedNamespace("b")).isEqualTo("isolato-t-b");
    assertThat(PoolNames.sharedNamespace("t-b")).isNotEqualTo(PoolNames.dedicatedNamespace("b"));
  }

  @Test
  void noClassOrTenantMapsOntoTheControllerOrKubernetesNamespaces() {
    assertThat(PoolNames.sharedNamespace("system")).isNotEqualTo("isolato-system");
    assertThat(PoolNames.classNameProblem("system"))
        .hasValueSatisfying(m -> assertThat(m).contains("reserved"));
    assertThat(PoolNames.classNameProblem("default")).isPresent();
    assertThat(PoolNames.classNameProblem("kube-public")).isPresent();
    assertThat(PoolNames.classNameProblem("gold")).isEmpty();
  }

  @Test
  void namesFitA63CharacterNamespace() {
    String longest = "a".repeat(PoolNames.MAX_CLASS_NAME);
    assertThat(PoolNames.classNameProblem(longest)).isEmpty();
    assertThat(PoolNames.sharedNamespace(longest)).hasSize(63);
    assertThat(PoolNames.classNameProblem(longest + "a"))
        .hasValueSatisfying(m -> assertThat(m).contains("at most 53"));
    assertThat(PoolNames.dedicatedNamespace("b".repeat(PoolNames.MAX_TENANT_ID))).hasSize(63);
    assertThat(PoolNames.tenantIdProblem("b".repeat(54))).isPresent();
    assertThat(PoolNames.tenantIdProblem("a.b"))
        .hasValueSatisfying(m -> assertThat(m).contains("DNS-1123"));
  }

  @Test
  void nameBoundsLeaveRoomForThePrefixesInA63CharacterNamespace() {
    assertThat(PoolNames.MAX_CLASS_NAME)
        .isEqualTo(PoolNames.MAX_NAMESPACE - PoolNames.SHARED_PREFIX.length());
    assertThat(PoolNames.MAX_TENANT_ID)
        .isEqualTo(PoolNames.MAX_NAMESPACE - PoolNames.DEDICATED_PREFIX.length());
  }
}
