package dev.isolato.incontext;

import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.TenantTable;
import dev.isolato.tenancy.Workload;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects of one in-context calibration, every one owned by its class (so deleting the class
 * deletes them) and labelled with the calibration's id (so the loop deletes them when it ends): the
 * replica's tenant table, the replica itself (the pool's live pod template under another {@code
 * app.kubernetes.io/name}, so neither the Deployment nor the tenants' Service selects it), a
 * NetworkPolicy admitting the generator to it, and the generator Job.
 */
public final class CalibrationObjects {
  /** The replica's name label: not the pool's, which the Service and Deployment select. */
  public static final String REPLICA_NAME = Workload.NAME + "-calibration";

  public static final String CALIBRATION_ROLE = "calibration";

  /** The replica's managed-by: Isolato's, but not the value pool pods carry. */
  public static final String MANAGED_BY = "isolato-calibration";

  public static final String ID_LABEL = "isolato.dev/calibration";

  /** On a generator pod: its Job's name (a calibration runs one Job per pass). */
  public static final String JOB_LABEL = "isolato.dev/calibration-job";

  static final String NAME_LABEL = "app.kubernetes.io/name";

  private CalibrationObjects() {}

  /** The name of every object of calibration {@code id}. */
  public static String name(String id) {
    return "isolato-calibration-" + id;
  }

  public static Map<String, String> labels(SloClass cls, String id) {
    Map<String, String> l = new LinkedHashMap<>();
    l.put(PoolObjects.MANAGED_BY, PoolObjects.MANAGER);
    l.put(PoolObjects.CLASS_LABEL, cls.getMetadata().getName());
    l.put(PoolObjects.ROLE_LABEL, CALIBRATION_ROLE);
    l.put(ID_LABEL, id);
    return l;
  }

  private static ObjectMeta meta(SloClass cls, String id, String namespace) {
    return new ObjectMetaBuilder()
        .withName(name(id))
        .withNamespace(namespace)
        .withLabels(labels(cls, id))
        .withOwnerReferences(PoolObjects.owner(cls))
        .build();
  }

  /** The pool's table without rate limits ({@link CalibrationTable#unlimited}). */
  public static HasMetadata table(SloClass cls, String id, String namespace, String tableJson) {
    return new ConfigMapBuilder()
        .withMetadata(meta(cls, id, namespace))
        .addToData(TenantTable.FILE, CalibrationTable.unlimited(tableJson))
        .build();
  }

  /**
   * The replica: the live Deployment's pod template (same containers, size, priority, placement
   * rules; nothing pinned), its own table, its own labels.
   */
  public static Pod replica(SloClass cls, String id, Deployment pool) {
    PodTemplateSpec template = pool.getSpec().getTemplate();
    Map<String, String> podLabels = new LinkedHashMap<>(template.getMetadata().getLabels());
    podLabels.putAll(labels(cls, id));
    podLabels.put(NAME_LABEL, REPLICA_NAME);
    // Not one of the pool's pods for anything that counts them: the pool-pod scrape (selected by
    // Isolato's managed-by label) would hand the ramp's overload to the verification loop as
    // live traffic, and the pool label would wake the pool's reconciler.
    podLabels.put(PoolObjects.MANAGED_BY, MANAGED_BY);
    podLabels.remove(PoolObjects.POOL_LABEL);
    PodSpec spec = new PodBuilder().withSpec(template.getSpec()).build().getSpec();
    List<Volume> volumes = new ArrayList<>();
    for (Volume v : spec.getVolumes() == null ? List.<Volume>of() : spec.getVolumes()) {
      if (v.getConfigMap() != null && Workload.TABLE_CONFIGMAP.equals(v.getConfigMap().getName())) {
        v =
            new io.fabric8.kubernetes.api.model.VolumeBuilder(v)
                .editConfigMap()
                .withName(name(id))
                .endConfigMap()
                .build();
      }
      volumes.add(v);
    }
    spec.setVolumes(volumes);
    spec.setRestartPolicy("Never");
    ObjectMeta m = meta(cls, id, pool.getMetadata().getNamespace());
    m.setLabels(podLabels);
    return new PodBuilder().withMetadata(m).withSpec(spec).build();
  }

  /** The pool denies all ingress; this admits the generator's namespace to the replica's port. */
  public static HasMetadata admitGenerator(
      SloClass cls, String id, String namespace, String generatorNamespace) {
    return new NetworkPolicyBuilder()
        .withMetadata(meta(cls, id, namespace))
        .withNewSpec()
        .withNewPodSelector()
        .withMatchLabels(Map.of(ID_LABEL, id))
        .endPodSelector()
        .withPolicyTypes("Ingress")
        .withIngress(
            PoolObjects.servicePortFrom(
                List.of(
                    new NetworkPolicyPeerBuilder()
                        .withNewNamespaceSelector()
                        .addToMatchLabels("kubernetes.io/metadata.name", generatorNamespace)
                        .endNamespaceSelector()
                        .build())))
        .endSpec()
        .build();
  }

  /**
   * The generator: the open-loop referee as a Job on the replica's node (so it reads that node's
   * CPU and busy time, and its own CPU use is the one the replica's neighbours see), no retries,
   * bounded by the plan.
   *
   * @param job the Job's name (one per pass of the calibration)
   * @param args the referee's flags ({@link GeneratorArgs})
   */
  public static Job generator(
      SloClass cls,
      String id,
      String job,
      String namespace,
      String node,
      String image,
      List<String> args,
      long deadlineSeconds) {
    ObjectMeta meta = meta(cls, id, namespace);
    meta.setName(job);
    Map<String, String> podLabels = new LinkedHashMap<>(labels(cls, id));
    podLabels.put(JOB_LABEL, job);
    return new JobBuilder()
        .withMetadata(meta)
        .withNewSpec()
        .withBackoffLimit(0)
        .withActiveDeadlineSeconds(deadlineSeconds)
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(podLabels)
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .withNodeSelector(Map.of("kubernetes.io/hostname", node))
        .withEnableServiceLinks(false)
        .withAutomountServiceAccountToken(false)
        .withTerminationGracePeriodSeconds(1L)
        // the pool pods' (restricted Pod Security): the referee runs as the same non-root user
        .withSecurityContext(PoolObjects.podSecurity())
        .addNewContainer()
        .withName("openloop")
        .withImage(image)
        .withImagePullPolicy("IfNotPresent")
        .withArgs(args)
        .withEnv(
            new EnvVarBuilder()
                .withName("NODE_NAME")
                .withNewValueFrom()
                .withNewFieldRef()
                .withFieldPath("spec.nodeName")
                .endFieldRef()
                .endValueFrom()
                .build())
        .withNewResources()
        .withRequests(Map.of("cpu", new Quantity("50m"), "memory", new Quantity("64Mi")))
        .withLimits(Map.of("memory", new Quantity("256Mi")))
        .endResources()
        .withSecurityContext(PoolObjects.containerSecurity())
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }
}
