package dev.isolato.tenancy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.PodResource;

/**
 * Isolato's own pods in every namespace ({@code app.kubernetes.io/managed-by=isolato}): what its
 * pod watches narrow down from, so that no pod of anyone else is ever read as one of its own.
 */
public final class ManagedPods {
  private ManagedPods() {}

  public static FilterWatchListDeletable<Pod, PodList, PodResource> of(KubernetesClient client) {
    return client.pods().inAnyNamespace().withLabel(PoolObjects.MANAGED_BY, PoolObjects.MANAGER);
  }
}
