package dev.isolato.incontext;

import dev.isolato.incontext.NodeContexts.PodOnNode;
import dev.isolato.kube.LeanItemStore;
import dev.isolato.tenancy.ManagedPods;
import dev.isolato.tenancy.PoolObjects;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where the classes' pods run, for the context watch and a calibration's neighbours: a watch of the
 * pods Isolato made for its classes (labels {@code app.kubernetes.io/managed-by=isolato} and {@code
 * isolato.dev/class}: pool pods and fillers, no pod of anyone else), so a look reads a copy kept
 * current by the watch instead of listing every class pod of the cluster each time (in a cluster
 * shared with other tenants, that list grows with the cluster). A calibration replica carries
 * another managed-by label and is nobody's neighbour, so it is not watched. Only the fields a look
 * reads are kept per pod.
 */
final class ClassPods {
  private final KubernetesClient client;
  private volatile SharedIndexInformer<Pod> pods;

  ClassPods(KubernetesClient client) {
    this.client = client;
  }

  /** Starts the watch (the leader, with its loops); a no-op when it runs. */
  synchronized void start() {
    if (pods == null) {
      pods = LeanItemStore.inform(selected(client), new LeanItemStore<>(ClassPods::keepPlacement));
    }
  }

  /** What the watch selects: Isolato's pods of its classes, in every namespace. */
  static FilterWatchListDeletable<Pod, PodList, PodResource> selected(KubernetesClient client) {
    return ManagedPods.of(client).withLabel(PoolObjects.CLASS_LABEL);
  }

  synchronized void stop() {
    if (pods != null) {
      pods.close();
      pods = null;
    }
  }

  /** Every class pod on a node, by node; empty when the watch does not run. */
  Optional<Map<String, List<PodOnNode>>> byNode() {
    SharedIndexInformer<Pod> p = pods;
    if (p == null) {
      return Optional.empty();
    }
    Map<String, List<PodOnNode>> byNode = new TreeMap<>();
    for (Pod pod : p.getStore().list()) {
      PodOnNode o = ContextWatch.onNode(pod);
      if (o != null) {
        byNode.computeIfAbsent(o.node(), n -> new ArrayList<>()).add(o);
      }
    }
    return Optional.of(byNode);
  }

  /** The class pods on {@code node}; empty when the watch does not run. */
  Optional<List<PodOnNode>> onNode(String node) {
    return byNode().map(b -> b.getOrDefault(node, List.of()));
  }

  /**
   * Drops all but what {@link ContextWatch#onNode} reads (labels, deletion, node, phase): a pod's
   * spec and status are most of its size, and the copy is held for every class pod of the cluster.
   */
  static void keepPlacement(Pod p) {
    String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    PodSpec spec = new PodSpec();
    spec.setNodeName(node);
    p.setSpec(spec);
    PodStatus status = new PodStatus();
    status.setPhase(phase);
    p.setStatus(status);
    p.getMetadata().setAnnotations(null);
    p.getMetadata().setOwnerReferences(null);
  }
}
