package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.kube.LeanItemStore;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the tenant caches keep (LeanItemStore with CachedTenants), and what the releaser sees. */
class CachedTenantsTest {
  /** A tenant as a watch delivers it: its own copies of every string, managed fields, a status. */
  static Tenant fromWatch(String id) {
    Tenant t = Fixtures.tenant(id, new String("gold"), 10, TenantSpec.Isolation.shared);
    t.getMetadata().setNamespace(new String("isolato-system"));
    t.getMetadata().setFinalizers(new java.util.ArrayList<>(List.of(new String(Tenant.FINALIZER))));
    t.getMetadata().setAnnotations(Map.of(new String("isolato.dev/accepted-at"), "1"));
    t.getMetadata()
        .setManagedFields(List.of(new ManagedFieldsEntryBuilder().withManager("fabric8").build()));
    t.setStatus(
        TenantStatuses.of(
            t,
            new PoolState(new String("isolato-c-gold"), 1, 0, false, "no ready pod"),
            10,
            Instant.parse("2025-01-01T00:00:00Z")));
    return t;
  }

  @Test
  void theReconcilersCacheKeepsTheStatusWithoutManagedFieldsAndSharesRepeatedStrings() {
    LeanItemStore<Tenant> store = new LeanItemStore<>(CachedTenants.WHOLE);
    Tenant a = fromWatch("a");
    Tenant b = fromWatch("b");
    store.put("isolato-system/a", a);
    store.put("isolato-system/b", b);
    Tenant ca = store.get("isolato-system/a");
    Tenant cb = store.get("isolato-system/b");
    assertThat(ca.getMetadata().getManagedFields()).isNull();
    assertThat(ca.getStatus().phase).isEqualTo("Provisioning");
    assertThat(ca.getSpec().sloClass).isSameAs(cb.getSpec().sloClass);
    assertThat(ca.getMetadata().getNamespace()).isSameAs(cb.getMetadata().getNamespace());
    assertThat(ca.getMetadata().getFinalizers().get(0))
        .isSameAs(cb.getMetadata().getFinalizers().get(0));
    assertThat(ca.getMetadata().getAnnotations().keySet().iterator().next())
        .isSameAs(cb.getMetadata().getAnnotations().keySet().iterator().next());
    assertThat(ca.getStatus().conditions.get(0).getMessage())
        .isSameAs(cb.getStatus().conditions.get(0).getMessage());
    assertThat(ca.getStatus().namespace).isSameAs(cb.getStatus().namespace);
  }

  @Test
  void theApisAndTheReleasersCachesKeepNoStatus() {
    LeanItemStore<Tenant> store = new LeanItemStore<>(CachedTenants.WITHOUT_STATUS);
    store.put("isolato-system/a", fromWatch("a"));
    Tenant a = store.get("isolato-system/a");
    assertThat(a.getStatus()).isNull();
    assertThat(a.getSpec().sloClass).isEqualTo("gold");
    assertThat(a.getMetadata().getManagedFields()).isNull();
  }

  @Test
  void theReleaserSeesDeletedTenantsAndThoseWithoutItsFinalizerOnly() {
    Tenant live = fromWatch("live");
    assertThat(TenantReleaser.worthReconciling(live)).isFalse();
    Tenant deleted = fromWatch("deleted");
    deleted.getMetadata().setDeletionTimestamp("2025-01-01T00:00:10Z");
    assertThat(TenantReleaser.worthReconciling(deleted)).isTrue();
    Tenant byKubectl = fromWatch("by-kubectl");
    byKubectl.getMetadata().setFinalizers(List.of());
    assertThat(TenantReleaser.worthReconciling(byKubectl)).isTrue();
  }
}
