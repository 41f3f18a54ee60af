package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.isolato.scaling.DirectFloor;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Pool objects follow the desired state both ways: what Isolato no longer wants is removed, and an
 * edited or deleted object is repaired from its informer's event, not by a periodic pass. The class
 * has no tenant, so no "tenant still pending" recheck reconciles it: only the events of its objects
 * do.
 */
class PoolDriftIT extends ItBase {
  static final String POOL = "isolato-c-drift";

  /** "Within seconds": one watch event and one reconcile. */
  static final Duration REPAIRED = Duration.ofSeconds(10);

  @Test
  @Order(1)
  void aClassWithoutTenantsGetsItsSharedPool() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson("drift", 2, 50, false)).status())
        .isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                kube.autoscaling()
                        .v2()
                        .horizontalPodAutoscalers()
                        .inNamespace(POOL)
                        .withName("saas-bench")
                        .get()
                    != null);
  }

  @Test
  @Order(2)
  void aLabelOrDataKeyIsolatoNoLongerWantsIsRemovedAndOthersFieldsStay() {
    // what an earlier desired state applied, under Isolato's field manager
    applyAsIsolato(
        kube.services().inNamespace(POOL).withName("saas-bench").get(),
        s -> s.getMetadata().getLabels().put("isolato.dev/stale", "yes"));
    applyAsIsolato(
        kube.configMaps().inNamespace(POOL).withName("tenant-table").get(),
        c -> c.getData().put("stale.json", "{}"));
    // a label another field manager applied is theirs
    kube.resource(
            new ServiceBuilder()
                .withNewMetadata()
                .withName("saas-bench")
                .withNamespace(POOL)
                .addToLabels("example.com/team", "payments")
                .endMetadata()
                .build())
        .fieldManager("someone-else")
        .serverSideApply();

    await()
        .atMost(REPAIRED)
        .untilAsserted(
            () -> {
              Service svc = kube.services().inNamespace(POOL).withName("saas-bench").get();
              assertThat(svc.getMetadata().getLabels())
                  .doesNotContainKey("isolato.dev/stale")
                  .containsEntry("example.com/team", "payments")
                  .containsEntry("app.kubernetes.io/managed-by", "isolato");
              assertThat(svc.getSpec().getSelector()).containsEntry("isolato.dev/pool", POOL);
              assertThat(
                      kube.configMaps().inNamespace(POOL).withName("tenant-table").get().getData())
                  .containsOnlyKeys("tenants.json");
            });
  }

  @Test
  @Order(3)
  void aDeletedServiceConfigMapAndQuotaAreRestoredWithinSeconds() {
    String classUid =
        kube.resources(dev.isolato.tenancy.SloClass.class)
            .withName("drift")
            .get()
            .getMetadata()
            .getUid();
    kube.services().inNamespace(POOL).withName("saas-bench").withGracePeriod(0).delete();
    kube.configMaps().inNamespace(POOL).withName("tenant-table").withGracePeriod(0).delete();
    kube.resourceQuotas().inNamespace(POOL).withName("isolato-pool").withGracePeriod(0).delete();

    await()
        .atMost(REPAIRED)
        .untilAsserted(
            () -> {
              Service svc = kube.services().inNamespace(POOL).withName("saas-bench").get();
              ConfigMap table = kube.configMaps().inNamespace(POOL).withName("tenant-table").get();
              ResourceQuota quota =
                  kube.resourceQuotas().inNamespace(POOL).withName("isolato-pool").get();
              for (HasMetadata o : new HasMetadata[] {svc, table, quota}) {
                assertThat(o).as("restored").isNotNull();
                assertThat(o.getMetadata().getDeletionTimestamp()).isNull();
                assertThat(o.getMetadata().getOwnerReferences())
                    .singleElement()
                    .satisfies(r -> assertThat(r.getUid()).isEqualTo(classUid));
              }
              assertThat(table.getData()).containsKey("tenants.json");
              assertThat(quota.getSpec().getHard()).containsKey("pods");
            });
  }

  @Test
  @Order(4)
  void aDirectRaiseIsTheAutoscalersMinimumUntilItsHoldEnds() {
    // what the direct path writes: the replicas and their floor, in one merge patch
    DirectFloor floor = DirectFloor.of(2, Instant.now(), Duration.ofSeconds(6));
    kube.apps()
        .deployments()
        .inNamespace(POOL)
        .withName("saas-bench")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            Serialization.asJson(
                Map.of(
                    "metadata",
                    Map.of("annotations", floor.annotations()),
                    "spec",
                    Map.of("replicas", 2))));
    await().atMost(REPAIRED).until(() -> hpaMin() == 2);
    assertThat(Instant.now()).isBefore(floor.until());
    // lowered by the pass the reconciler scheduled for the floor's end: no other event comes
    await()
        .atMost(Duration.between(Instant.now(), floor.until()).plus(REPAIRED))
        .until(() -> hpaMin() == 1);
    assertThat(Instant.now()).isAfter(floor.until());
    // the Deployment keeps what it has: scaling down is the autoscaler's
    assertThat(
            kube.apps()
                .deployments()
                .inNamespace(POOL)
                .withName("saas-bench")
                .get()
                .getSpec()
                .getReplicas())
        .isEqualTo(2);
  }

  private static int hpaMin() {
    return kube.autoscaling()
        .v2()
        .horizontalPodAutoscalers()
        .inNamespace(POOL)
        .withName("saas-bench")
        .get()
        .getSpec()
        .getMinReplicas();
  }

  /** Server-side applies {@code live} changed by {@code change}, as Isolato's field manager. */
  private static <T extends HasMetadata> void applyAsIsolato(T live, Consumer<T> change) {
    live.getMetadata().setManagedFields(null);
    live.getMetadata().setResourceVersion(null);
    change.accept(live);
    kube.resource(live).fieldManager("isolato").forceConflicts().serverSideApply();
  }
}
