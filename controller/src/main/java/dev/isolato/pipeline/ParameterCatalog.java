package dev.isolato.pipeline;

import static dev.isolato.pipeline.Parameter.Apply.isolato;
import static dev.isolato.pipeline.Parameter.Apply.localkube;
import static dev.isolato.pipeline.Parameter.Apply.report;
import static dev.isolato.pipeline.Parameter.Counted.CLASSES;
import static dev.isolato.pipeline.Parameter.Counted.CONTAINERS;
import static dev.isolato.pipeline.Parameter.Counted.CONTAINERS_PER_NODE;
import static dev.isolato.pipeline.Parameter.Counted.NODES;
import static dev.isolato.pipeline.Parameter.Counted.PODS;
import static dev.isolato.pipeline.Parameter.Counted.PODS_PER_NODE;
import static dev.isolato.pipeline.Parameter.Counted.PODS_PER_WORKLOAD;
import static dev.isolato.pipeline.Parameter.Counted.WORKLOADS;
import static dev.isolato.pipeline.Parameter.Throttle.DOUBLING;
import static dev.isolato.pipeline.Parameter.Throttle.FLAT;
import static dev.isolato.pipeline.Parameter.Throttle.IN_FLIGHT;
import static dev.isolato.pipeline.Parameter.Throttle.NONE;
import static dev.isolato.pipeline.Parameter.Throttle.TOKEN_BUCKET;
import static dev.isolato.pipeline.Stage.Component.APISERVER;
import static dev.isolato.pipeline.Stage.Component.CONTROLLER_MANAGER;
import static dev.isolato.pipeline.Stage.Component.ISOLATO;
import static dev.isolato.pipeline.Stage.Component.KUBELET;
import static dev.isolato.pipeline.Stage.Component.SCHEDULER;

import dev.isolato.pipeline.Parameter.Apply;
import dev.isolato.pipeline.Parameter.Counted;
import dev.isolato.pipeline.Parameter.Throttle;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The rule catalog for Kubernetes 1.34 (Columbo Table 5, extended): one entry per setting that
 * limits a pipeline step. Every default is checked against the v1.34.4 source by
 * ParameterCatalogTest (file, line and text in {@code source}/{@code evidence}).
 */
public final class ParameterCatalog {

  private static final String K = "k8s.io/kubernetes@v1.34.4/";
  private static final String KCM = K + "pkg/controller/apis/config/v1alpha1/defaults.go:";
  private static final String SCHED = K + "pkg/scheduler/apis/config/v1/defaults.go:";
  private static final String KUBELET_DEFAULTS = K + "pkg/kubelet/apis/config/v1beta1/defaults.go:";
  private static final String APISERVER_CONFIG = "k8s.io/apiserver@v0.34.4/pkg/server/config.go:";
  private static final String CONSTANT = "a constant in the source: needs a rebuilt component";
  private static final String NO_KEY =
      "a configuration-file field localkube has no key for: report to the cluster admin";

  public static final List<Parameter> KUBERNETES_1_34 =
      List.of(
          // kube-controller-manager
          p(
              "controller-manager.kube-api-qps",
              CONTROLLER_MANAGER,
              "20",
              20,
              PODS,
              TOKEN_BUCKET,
              localkube("controller-manager.kube-api-qps"),
              KCM + "58",
              "QPS = 20.0",
              "Table 5 (S3 T_w): every pod the ReplicaSet controller creates passes this token bucket",
              Step.S3_WRITE),
          p(
              "controller-manager.kube-api-burst",
              CONTROLLER_MANAGER,
              "30",
              30,
              PODS,
              TOKEN_BUCKET,
              localkube("controller-manager.kube-api-burst"),
              KCM + "61",
              "Burst = 30",
              "the token bucket's depth: the first 30 creates are not delayed",
              Step.S3_WRITE),
          p(
              "controller-manager.concurrent-deployment-syncs",
              CONTROLLER_MANAGER,
              "5",
              5,
              WORKLOADS,
              FLAT,
              localkube("controller-manager.concurrent-deployment-syncs"),
              K + "pkg/controller/deployment/config/v1alpha1/defaults.go:34",
              "ConcurrentDeploymentSyncs = 5",
              "Deployments unpacked into ReplicaSets at once",
              Step.S2_READ),
          p(
              "controller-manager.concurrent-replicaset-syncs",
              CONTROLLER_MANAGER,
              "5",
              5,
              WORKLOADS,
              FLAT,
              localkube("controller-manager.concurrent-replicaset-syncs"),
              K + "pkg/controller/replicaset/config/v1alpha1/defaults.go:34",
              "ConcurrentRSSyncs = 5",
              "ReplicaSets whose pods are created at once",
              Step.S3_CREATE_POD_OBJECT),
          p(
              "controller-manager.SlowStartInitialBatchSize",
              CONTROLLER_MANAGER,
              "1",
              1,
              PODS_PER_WORKLOAD,
              DOUBLING,
              report(CONSTANT),
              K + "pkg/controller/controller_utils.go:87",
              "SlowStartInitialBatchSize = 1",
              "Table 5 (S3 T_cpo): pods of one sync are created in batches 1, 2, 4, …",
              Step.S3_CREATE_POD_OBJECT),
          p(
              "controller-manager.BurstReplicas",
              CONTROLLER_MANAGER,
              "500",
              500,
              PODS_PER_WORKLOAD,
              FLAT,
              report(CONSTANT),
              K + "pkg/controller/replicaset/replica_set.go:72",
              "BurstReplicas = 500",
              "pods one ReplicaSet sync creates at most; the rest wait for the next sync",
              Step.S3_CREATE_POD_OBJECT),
          p(
              "controller-manager.concurrent-service-endpoint-syncs",
              CONTROLLER_MANAGER,
              "5",
              5,
              WORKLOADS,
              FLAT,
              report(NO_KEY.replace("configuration-file field", "flag")),
              K + "pkg/controller/endpointslice/config/v1alpha1/defaults.go:35",
              "ConcurrentServiceEndpointSyncs = 5",
              "Services whose EndpointSlices are updated at once",
              Step.S7_ENDPOINTS),
          // kube-apiserver
          p(
              "apiserver.max-requests-inflight",
              APISERVER,
              "400",
              400,
              PODS,
              IN_FLIGHT,
              localkube("apiserver.max-requests-inflight"),
              APISERVER_CONFIG + "442",
              "MaxRequestsInFlight:            400",
              "read requests at once; with API Priority and Fairness (on by default) both in-flight limits are"
                  + " summed into the server's concurrency shared by priority levels",
              Step.S2_READ,
              Step.S4_READ,
              Step.S5_READ),
          p(
              "apiserver.max-mutating-requests-inflight",
              APISERVER,
              "200",
              200,
              CONTAINERS,
              IN_FLIGHT,
              localkube("apiserver.max-mutating-requests-inflight"),
              APISERVER_CONFIG + "443",
              "MaxMutatingRequestsInFlight:    200",
              "Table 5 (S1, S3, S6 T_w): writes at once",
              Step.S1_WRITE,
              Step.S3_WRITE,
              Step.S6_WRITE),
          // kube-scheduler
          p(
              "scheduler.kube-api-qps",
              SCHEDULER,
              "50",
              50,
              PODS,
              TOKEN_BUCKET,
              localkube("scheduler.kube-api-qps"),
              SCHED + "149",
              "QPS = 50.0",
              "Table 5 (S4 T_w): one binding per pod; and S4 T_r when attempts fail: the failure's"
                  + " status patch waits for this bucket inside the scheduling loop"
                  + " (SchedulerAsyncAPICalls, off by default in 1.34), holding every pod queued",
              Step.S4_WRITE,
              Step.S4_READ),
          p(
              "scheduler.kube-api-burst",
              SCHEDULER,
              "100",
              100,
              PODS,
              TOKEN_BUCKET,
              localkube("scheduler.kube-api-burst"),
              SCHED + "152",
              "Burst = 100",
              "the token bucket's depth",
              Step.S4_WRITE,
              Step.S4_READ),
          p(
              "scheduler.parallelism",
              SCHEDULER,
              "16",
              16,
              NODES,
              FLAT,
              report(NO_KEY),
              SCHED + "109",
              "Parallelism = ptr.To[int32](16)",
              "nodes filtered and scored at once for one pod",
              Step.S4_SCHEDULE),
          p(
              "scheduler.percentageOfNodesToScore",
              SCHEDULER,
              "0 (adaptive: 50 % minus nodes/125, at least 5 %)",
              OptionalDouble.empty(),
              NODES,
              NONE,
              report(NO_KEY),
              K + "pkg/scheduler/apis/config/types.go:217",
              "DefaultPercentageOfNodesToScore = 0",
              "matters from 100 nodes on; lowering it trades placement quality",
              Step.S4_SCHEDULE),
          // kubelet (KubeletConfiguration fields)
          p(
              "kubelet.kubeAPIQPS",
              KUBELET,
              "50",
              50,
              CONTAINERS_PER_NODE,
              TOKEN_BUCKET,
              localkube("kubelet.kubeAPIQPS"),
              KUBELET_DEFAULTS + "221",
              "KubeAPIQPS = ptr.To[int32](50)",
              "Table 5 (S6 T_w): status writes; 1.26 defaulted it to 5 (Section 6.6)",
              Step.S6_WRITE,
              Step.S7_PROBE),
          p(
              "kubelet.kubeAPIBurst",
              KUBELET,
              "100",
              100,
              CONTAINERS_PER_NODE,
              TOKEN_BUCKET,
              localkube("kubelet.kubeAPIBurst"),
              KUBELET_DEFAULTS + "224",
              "KubeAPIBurst = 100",
              "the token bucket's depth",
              Step.S6_WRITE,
              Step.S7_PROBE),
          p(
              "kubelet.registryPullQPS",
              KUBELET,
              "5",
              5,
              CONTAINERS_PER_NODE,
              FLAT,
              localkube("kubelet.registryPullQPS"),
              KUBELET_DEFAULTS + "111",
              "RegistryPullQPS = ptr.To[int32](5)",
              "Table 5 (S5 T_mv): only pulls count; images already present (IfNotPresent) are not pulled",
              Step.S5_MOUNT),
          p(
              "kubelet.registryBurst",
              KUBELET,
              "10",
              10,
              CONTAINERS_PER_NODE,
              FLAT,
              localkube("kubelet.registryBurst"),
              KUBELET_DEFAULTS + "114",
              "RegistryBurst = 10",
              "the pull token bucket's depth",
              Step.S5_MOUNT),
          p(
              "kubelet.serializeImagePulls",
              KUBELET,
              "true (while maxParallelImagePulls is unset or < 2)",
              OptionalDouble.empty(),
              CONTAINERS_PER_NODE,
              NONE,
              report(
                  "localkube always runs with serializeImagePulls: false; set maxParallelImagePulls instead"),
              KUBELET_DEFAULTS + "231",
              "SerializeImagePulls = ptr.To(true)",
              "one pull at a time",
              Step.S5_MOUNT),
          p(
              "kubelet.maxParallelImagePulls",
              KUBELET,
              "nil (pulls serialized: 1 at a time)",
              1,
              CONTAINERS_PER_NODE,
              FLAT,
              localkube("kubelet.maxParallelImagePulls"),
              KUBELET_DEFAULTS + "230",
              "MaxParallelImagePulls == nil",
              "Table 5 (S5 T_mv); localkube's own default is 5",
              Step.S5_MOUNT),
          p(
              "kubelet.eventRecordQPS",
              KUBELET,
              "50",
              50,
              CONTAINERS_PER_NODE,
              FLAT,
              localkube("kubelet.eventRecordQPS"),
              KUBELET_DEFAULTS + "117",
              "EventRecordQPS = ptr.To[int32](50)",
              "Table 5 (S6 T_w): Pulled/Created/Started events per container",
              Step.S6_WRITE),
          p(
              "kubelet.eventBurst",
              KUBELET,
              "100",
              100,
              CONTAINERS_PER_NODE,
              FLAT,
              localkube("kubelet.eventBurst"),
              KUBELET_DEFAULTS + "120",
              "EventBurst = 100",
              "the event token bucket's depth",
              Step.S6_WRITE),
          p(
              "kubelet.maxPods",
              KUBELET,
              "110",
              110,
              PODS_PER_NODE,
              FLAT,
              localkube("kubelet.maxPods"),
              KUBELET_DEFAULTS + "195",
              "MaxPods = 110",
              "pods beyond it stay unschedulable on the node; localkube's own default is 250",
              Step.S4_SCHEDULE),
          // Isolato's own settings (applied on shared clusters too)
          p(
              "isolato.reconcile-threads",
              ISOLATO,
              "4",
              4,
              CLASSES,
              FLAT,
              isolato("isolato.reconcile-threads"),
              "controller/src/main/resources/application.yaml",
              "reconcile-threads: 4",
              "Isolato is the client of stage 1: classes reconciled at once (a class's pools are"
                  + " applied within its reconcile, isolato.pool-apply-threads at a time)",
              Step.S1_START_CLIENT),
          p(
              "isolato.pool-apply-threads",
              ISOLATO,
              "8",
              8,
              WORKLOADS,
              FLAT,
              isolato("isolato.pool-apply-threads"),
              "controller/src/main/resources/application.yaml",
              "pool-apply-threads: 8",
              "a class's pools (its shared pool, a pool per dedicated tenant) applied at once in its"
                  + " reconcile; each is a chain of API round trips (namespace, its guards, the"
                  + " Deployment, the autoscaler)",
              Step.S1_START_CLIENT),
          p(
              "isolato.client-qps",
              ISOLATO,
              "unlimited",
              OptionalDouble.empty(),
              WORKLOADS,
              NONE,
              report("fabric8 7.5.2 has no client-side QPS limiter: nothing to raise"),
              "",
              "",
              "keep writes per onboarding few instead (api-call counter)",
              Step.S1_WRITE),
          p(
              "isolato.deployment.max-surge",
              ISOLATO,
              "1",
              OptionalDouble.empty(),
              PODS_PER_WORKLOAD,
              NONE,
              report(
                  "a constant in PoolObjects (SURGE): paces rollouts of a changed template only; a scale-out"
                      + " creates every missing pod at once"),
              "controller/src/main/java/dev/isolato/tenancy/PoolObjects.java",
              "SURGE = 1",
              "maxUnavailable is 0",
              Step.S3_CREATE_POD_OBJECT),
          p(
              "isolato.readiness.period-seconds",
              ISOLATO,
              "1",
              OptionalDouble.empty(),
              PODS,
              NONE,
              report(
                  "already the minimum: the first probe runs as the container starts, then every second"),
              "controller/src/main/java/dev/isolato/tenancy/PoolContainers.java",
              "withPeriodSeconds(1).withFailureThreshold(2)",
              "Ready after one passing probe (successThreshold 1)",
              Step.S7_PROBE));

  private ParameterCatalog() {}

  public static Optional<Parameter> byId(String id) {
    return KUBERNETES_1_34.stream().filter(p -> p.id().equals(id)).findFirst();
  }

  /**
   * Control-plane settings to start the loop from, written {@code KEY=VALUE[,KEY=VALUE…]}: each key
   * a catalog throughput limit localkube sets (e.g. {@code controller-manager.kube-api-qps=20},
   * Kubernetes' default where localkube's differs), each value a positive number; in the order
   * given.
   *
   * @throws IllegalArgumentException naming the first entry that is not such a setting
   */
  public static Map<Parameter, Double> localkubeSettings(String spec) {
    Map<Parameter, Double> out = new LinkedHashMap<>();
    for (String entry : spec.split(",", -1)) {
      int eq = entry.indexOf('=');
      String key = (eq < 0 ? entry : entry.substring(0, eq)).strip();
      Parameter p =
          byId(key)
              .filter(ParameterCatalog::localkubeLimit)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "'"
                              + entry
                              + "' is not KEY=VALUE with KEY a throughput limit localkube sets,"
                              + " one of: "
                              + KUBERNETES_1_34.stream()
                                  .filter(ParameterCatalog::localkubeLimit)
                                  .map(Parameter::id)
                                  .collect(Collectors.joining(", "))));
      double value = eq < 0 ? Double.NaN : number(entry.substring(eq + 1).strip());
      if (!(value > 0 && value < Double.POSITIVE_INFINITY)) {
        throw new IllegalArgumentException(
            "'"
                + entry
                + "': "
                + key
                + " needs a positive number, e.g. "
                + key
                + "="
                + p.defaultValue());
      }
      if (out.put(p, value) != null) {
        throw new IllegalArgumentException(key + " is given twice");
      }
    }
    return out;
  }

  private static boolean localkubeLimit(Parameter p) {
    return p.limit().isPresent() && p.apply().where() == Apply.Where.LOCALKUBE;
  }

  private static double number(String text) {
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  private static Parameter p(
      String id,
      Stage.Component c,
      String dflt,
      double limit,
      Counted counts,
      Throttle throttle,
      Apply apply,
      String source,
      String evidence,
      String note,
      Step... steps) {
    return p(
        id,
        c,
        dflt,
        OptionalDouble.of(limit),
        counts,
        throttle,
        apply,
        source,
        evidence,
        note,
        steps);
  }

  private static Parameter p(
      String id,
      Stage.Component c,
      String dflt,
      OptionalDouble limit,
      Counted counts,
      Throttle throttle,
      Apply apply,
      String source,
      String evidence,
      String note,
      Step... steps) {
    return new Parameter(
        id, c, dflt, limit, Set.of(steps), counts, throttle, apply, source, evidence, note);
  }
}
