package dev.isolato.pool;

import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.SloPool;
import dev.isolato.tenancy.TablePusher;
import dev.isolato.tenancy.TenancyMetrics;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pool pods holding a tenant table Isolato never pushed. The revisions Isolato gives a pool's table
 * are the pool's generations, which only rise, so a revision above the pool's current generation
 * came from someone else with the pool's admin token; the pod would refuse every table of Isolato's
 * (409) until the generation passed it, so its tenants' changes would never arrive. Such a pod is
 * deleted: its Deployment makes a new one, which starts from the ConfigMap's table.
 */
final class ForeignTablePods {
  private static final Logger log = LoggerFactory.getLogger(ForeignTablePods.class);

  private ForeignTablePods() {}

  /** Whether a pod's table revision cannot have come from Isolato. */
  static boolean foreign(long revisionInUse, long poolGeneration) {
    return revisionInUse > poolGeneration;
  }

  /**
   * Deletes those of the pods that refused a push as holding a higher revision whose table is
   * foreign to the pool as the API server has it now (not the cache: a pass may see an older
   * generation than the one a newer pass pushed). Only the pool's own live pods are deleted.
   */
  static void replace(
      KubernetesClient client,
      TablePusher pusher,
      TenancyMetrics metrics,
      SloPool seen,
      List<String> tokens,
      List<TablePusher.Target> refused) {
    if (refused.isEmpty()) {
      return;
    }
    String name = seen.getMetadata().getName();
    SloPool now = client.resources(SloPool.class).withName(name).get();
    if (now == null || now.getMetadata().getGeneration() == null) {
      return;
    }
    long generation = now.getMetadata().getGeneration();
    for (TablePusher.Target target : refused) {
      OptionalLong revision = pusher.revisionInUse(target, tokens);
      if (target.pod() == null
          || revision.isEmpty()
          || !foreign(revision.getAsLong(), generation)) {
        continue;
      }
      Pod pod = client.pods().inNamespace(name).withName(target.pod()).get();
      if (pod == null || !ownLive(pod, name)) {
        continue;
      }
      log.warn(
          "pool {}: pod {} holds tenant table revision {}, above the pool's generation {}: not"
              + " pushed by Isolato (whoever holds the pool's admin token can); deleting the pod,"
              + " its replacement starts from the pool's ConfigMap",
          name,
          target.pod(),
          revision.getAsLong(),
          generation);
      client.pods().inNamespace(name).withName(target.pod()).delete();
      metrics.foreignTablePodDeleted(seen.getSpec().sloClass);
    }
  }

  /** One of the pool's pods (by Isolato's labels) and not already on its way out. */
  private static boolean ownLive(Pod pod, String poolNamespace) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    return labels != null
        && PoolObjects.MANAGER.equals(labels.get(PoolObjects.MANAGED_BY))
        && poolNamespace.equals(labels.get(PoolObjects.POOL_LABEL))
        && pod.getMetadata().getDeletionTimestamp() == null;
  }
}
