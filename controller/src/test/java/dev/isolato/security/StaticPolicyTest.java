package dev.isolato.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StaticPolicyTest {
  static final Caller.TenantUser ACME = new Caller.TenantUser("tenant token of 'acme'", "acme");
  static final Permission GET_TENANT = Permission.of("get", "tenants").in("isolato-system");

  @Test
  void anAdminMayDoEverything() {
    Caller admin = new Caller.Admin("admin token");
    assertThat(StaticPolicy.denial(admin, Permission.of("delete", "sloclasses").named("gold")))
        .isEmpty();
    assertThat(StaticPolicy.denial(admin, Permission.of("create", "simulations"))).isEmpty();
  }

  @Test
  void aTenantMayOnlyReadItsOwnTenant() {
    assertThat(StaticPolicy.denial(ACME, GET_TENANT.named("acme"))).isEmpty();
    assertThat(StaticPolicy.denial(ACME, GET_TENANT.named("globex")))
        .hasValueSatisfying(r -> assertThat(r).contains("'acme'"));
    assertThat(StaticPolicy.denial(ACME, Permission.of("list", "tenants").in("isolato-system")))
        .isPresent();
    assertThat(StaticPolicy.denial(ACME, Permission.of("update", "tenants").named("acme")))
        .isPresent();
    assertThat(StaticPolicy.denial(ACME, Permission.of("delete", "tenants").named("acme")))
        .isPresent();
    assertThat(StaticPolicy.denial(ACME, Permission.of("get", "sloclasses").named("acme")))
        .isPresent();
    assertThat(StaticPolicy.denial(ACME, GET_TENANT.named("acme").subresource("status")))
        .isPresent();
    assertThat(StaticPolicy.denial(ACME, GET_TENANT)).as("no name").isPresent();
  }

  @Test
  void permissionsDescribeThemselvesAsKubernetesDoes() {
    Permission p = GET_TENANT.named("acme");
    assertThat(p.describe())
        .isEqualTo("get tenants.isolato.dev 'acme' in namespace isolato-system");
    assertThat(p.canICommand("system:serviceaccount:shop:web"))
        .isEqualTo(
            "kubectl auth can-i get tenants.isolato.dev/acme -n isolato-system --as system:serviceaccount:shop:web");
    assertThat(Permission.of("update", "sloclasses").subresource("status").canICommand("bob"))
        .isEqualTo(
            "kubectl auth can-i update sloclasses.isolato.dev --subresource=status --as bob");
    assertThat(p.asMap())
        .containsEntry("group", "isolato.dev")
        .containsEntry("name", "acme")
        .doesNotContainKey("subresource");
  }
}
