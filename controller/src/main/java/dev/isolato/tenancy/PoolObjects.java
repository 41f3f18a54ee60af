package dev.isolato.tenancy;

import dev.isolato.slo.CapacityPlan;
import dev.isolato.slo.VerticalHeadroom;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRuleBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Desired state of one pool as fabric8 objects: a pure function of the class, the pool, its plan
 * and its table. Every object is owned by the SloClass (cluster-scoped, so it may own objects in
 * any namespace), which lets the garbage collector remove a deleted class's pools.
 */
public final class PoolObjects {
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  public static final String MANAGER = "isolato";

  /** The server-side apply field manager of everything Isolato writes. */
  public static final String FIELD_MANAGER = "isolato";

  public static final String CLASS_LABEL = "isolato.dev/class";
  public static final String POOL_LABEL = "isolato.dev/pool";
  public static final String ISOLATION_LABEL = "isolato.dev/isolation";
  public static final String TENANT_LABEL = "isolato.dev/tenant";

  /**
   * Marks the filler's objects (issue 12 item 6), so nothing counts them as the class's capacity.
   */
  public static final String ROLE_LABEL = "isolato.dev/role";

  public static final String FILLER_ROLE = "filler";

  /**
   * The filler PriorityClass's value: below every class's (SpecLimits.MAX_PRIORITY bounds them).
   */
  static final int FILLER_PRIORITY = -SpecLimits.MAX_PRIORITY - 1;

  /** Extra pods the quota allows beyond maxReplicas: the rolling update's surge. */
  static final int SURGE = 1;

  private PoolObjects() {}

  /** Pod Security Admission level of every namespace Isolato creates. */
  static final String POD_SECURITY = "restricted";

  static final List<String> POD_SECURITY_MODES = List.of("enforce", "warn", "audit");

  /** Non-root user and group of the pool pods (the saas-bench image's USER). */
  static final long POD_USER = 65532;

  public static final String DENY_ALL_POLICY = "isolato-deny-all";
  public static final String ALLOW_POLICY = "isolato-allow-service";

  /**
   * Inputs of one pool's objects.
   *
   * @param adminTokens the tokens the pool's admin endpoint accepts, the one pushes use first
   * @param peers who may reach the pool's Service port
   * @param gateImage the gate sidecar's image (null: {@link Workload#GATE_IMAGE})
   * @param io the tenants' IO as the pool resource carries it (null: from {@code pool}'s tenants)
   */
  public record Input(
      SloClass sloClass,
      Pool pool,
      CapacityPlan plan,
      String tableJson,
      List<String> adminTokens,
      NetworkPeers peers,
      String gateImage,
      PoolIo io) {
    public Input {
      adminTokens = List.copyOf(adminTokens);
      gateImage = gateImage == null || gateImage.isBlank() ? Workload.GATE_IMAGE : gateImage;
      io = io == null ? PoolIo.of(pool.tenants()) : io;
    }

    /** With the default gate image, the tenants' IO from {@code pool}'s tenants. */
    public Input(
        SloClass sloClass,
        Pool pool,
        CapacityPlan plan,
        String tableJson,
        List<String> adminTokens,
        NetworkPeers peers) {
      this(sloClass, pool, plan, tableJson, adminTokens, peers, null, null);
    }
  }

  /** Objects in apply order: the namespace and cluster objects first, the workload last. */
  public static List<HasMetadata> build(Input in) {
    List<HasMetadata> objects =
        new ArrayList<>(
            List.of(
                namespace(in),
                priorityClass(in.sloClass()),
                resourceQuota(in),
                limitRange(in),
                denyAllPolicy(in),
                allowServicePolicy(in),
                adminSecret(in),
                tableConfigMap(in),
                deployment(in),
                service(in),
                autoscaler(in)));
    if (headroom(in.sloClass().getSpec()).runsFiller()) {
      objects.add(fillerPriorityClass(in.sloClass()));
      objects.add(fillerDeployment(in));
    }
    return List.copyOf(objects);
  }

  /** The class's vertical headroom (none unless spec.headroom is declared). */
  public static VerticalHeadroom headroom(SloClassSpec s) {
    return s.headroom == null
        ? VerticalHeadroom.NONE
        : new VerticalHeadroom(
            CalibrationStatusMapper.cpuMillis(s.headroom.cpu), s.headroom.filler);
  }

  /** Whether {@code o} is one of the filler's objects. */
  public static boolean isFiller(HasMetadata o) {
    return o.getMetadata().getLabels() != null
        && FILLER_ROLE.equals(o.getMetadata().getLabels().get(ROLE_LABEL));
  }

  public static String priorityClassName(String sloClass) {
    return PoolNames.priorityClass(sloClass);
  }

  public static Map<String, String> labels(Pool pool) {
    Map<String, String> l = new LinkedHashMap<>();
    l.put(MANAGED_BY, MANAGER);
    l.put(CLASS_LABEL, pool.sloClass());
    l.put(POOL_LABEL, pool.namespace());
    l.put(ISOLATION_LABEL, pool.isolation());
    if (pool.dedicated()) {
      l.put(TENANT_LABEL, pool.dedicatedTenant());
    }
    return l;
  }

  static Map<String, String> selector(Pool pool) {
    return Map.of("app.kubernetes.io/name", Workload.NAME, POOL_LABEL, pool.namespace());
  }

  public static OwnerReference owner(SloClass c) {
    return new OwnerReferenceBuilder()
        .withApiVersion(c.getApiVersion())
        .withKind(c.getKind())
        .withName(c.getMetadata().getName())
        .withUid(c.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }

  private static ObjectMeta meta(Input in, String name, boolean namespaced) {
    ObjectMetaBuilder b =
        new ObjectMetaBuilder()
            .withName(name)
            .withLabels(labels(in.pool()))
            .withOwnerReferences(owner(in.sloClass()));
    if (namespaced) {
      b.withNamespace(in.pool().namespace());
    }
    return b.build();
  }

  /** The pool namespace, with Pod Security Admission at {@value #POD_SECURITY} in every mode. */
  public static HasMetadata namespace(Input in) {
    ObjectMeta m = meta(in, in.pool().namespace(), false);
    m.getLabels().putAll(podSecurityLabels());
    return new NamespaceBuilder().withMetadata(m).build();
  }

  public static Map<String, String> podSecurityLabels() {
    Map<String, String> l = new LinkedHashMap<>();
    for (String mode : POD_SECURITY_MODES) {
      l.put("pod-security.kubernetes.io/" + mode, POD_SECURITY);
    }
    return l;
  }

  /** Nothing reaches or leaves any pod of the namespace unless another policy allows it. */
  public static HasMetadata denyAllPolicy(Input in) {
    return new NetworkPolicyBuilder()
        .withMetadata(meta(in, DENY_ALL_POLICY, true))
        .withNewSpec()
        .withNewPodSelector()
        .endPodSelector()
        .withPolicyTypes("Ingress", "Egress")
        .endSpec()
        .build();
  }

  /**
   * The pool's pods admit their Service port, from the provider's ingress and the controller only.
   */
  public static HasMetadata allowServicePolicy(Input in) {
    NetworkPeers p = in.peers();
    List<NetworkPolicyPeer> from = new ArrayList<>();
    if (!p.ingressNamespaces().isEmpty()) {
      NetworkPolicyPeerBuilder ingress =
          new NetworkPolicyPeerBuilder()
              .withNewNamespaceSelector()
              .withMatchLabels(p.ingressNamespaces())
              .endNamespaceSelector();
      if (!p.ingressPods().isEmpty()) {
        ingress.withNewPodSelector().withMatchLabels(p.ingressPods()).endPodSelector();
      }
      from.add(ingress.build());
    }
    p.ingressCidrs()
        .forEach(
            c ->
                from.add(
                    new NetworkPolicyPeerBuilder()
                        .withNewIpBlock()
                        .withCidr(c)
                        .endIpBlock()
                        .build()));
    if (p.controllerNamespace() != null && !p.controllerNamespace().isBlank()) {
      from.add(
          new NetworkPolicyPeerBuilder()
              .withNewNamespaceSelector()
              .addToMatchLabels("kubernetes.io/metadata.name", p.controllerNamespace())
              .endNamespaceSelector()
              .build());
    }
    p.controllerCidrs()
        .forEach(
            c ->
                from.add(
                    new NetworkPolicyPeerBuilder()
                        .withNewIpBlock()
                        .withCidr(c)
                        .endIpBlock()
                        .build()));
    return new NetworkPolicyBuilder()
        .withMetadata(meta(in, ALLOW_POLICY, true))
        .withNewSpec()
        .withNewPodSelector()
        .withMatchLabels(selector(in.pool()))
        .endPodSelector()
        .withPolicyTypes("Ingress")
        .withIngress(servicePortFrom(from))
        .endSpec()
        .build();
  }

  /** An ingress rule admitting {@code from} to the service port, the one port a pool pod opens. */
  public static NetworkPolicyIngressRule servicePortFrom(List<NetworkPolicyPeer> from) {
    return new NetworkPolicyIngressRuleBuilder()
        .withFrom(from)
        .addNewPort()
        .withProtocol("TCP")
        .withPort(new IntOrString(Workload.PORT))
        .endPort()
        .build();
  }

  public static HasMetadata priorityClass(SloClass c) {
    String name = c.getMetadata().getName();
    return new PriorityClassBuilder()
        .withNewMetadata()
        .withName(priorityClassName(name))
        .withLabels(Map.of(MANAGED_BY, MANAGER, CLASS_LABEL, name))
        .withOwnerReferences(owner(c))
        .endMetadata()
        .withValue(c.getSpec().priority)
        .withDescription("Isolato SLO class " + name)
        .build();
  }

  /** Sized to the class ceiling: maxReplicas pods (+ surge) of the class shape, nothing else. */
  public static HasMetadata resourceQuota(Input in) {
    SloClassSpec s = in.sloClass().getSpec();
    int pods = s.maxReplicas + SURGE;
    // the largest size the planner may choose (issue 12: pod size from measurements)
    Quantity requestsCpu = times(CalibrationStatusMapper.largestCpu(s), pods);
    Quantity limitsCpu = requestsCpu;
    Quantity mem = times(s.resources.memory, pods);
    VerticalHeadroom headroom = headroom(s);
    if (headroom.headroomMillis() > 0) {
      long largest = CalibrationStatusMapper.cpuMillis(CalibrationStatusMapper.largestCpu(s));
      requestsCpu = millis(headroom.quotaRequestsMillis(largest, pods));
      limitsCpu = millis(headroom.quotaLimitsMillis(largest, pods));
    }
    if (headroom.runsFiller()) {
      mem = plus(mem, Workload.FILLER_MEMORY);
    }
    return new ResourceQuotaBuilder()
        .withMetadata(meta(in, "isolato-pool", true))
        .withNewSpec()
        .addToHard("pods", new Quantity(Integer.toString(headroom.quotaPods(pods))))
        .addToHard("requests.cpu", requestsCpu)
        .addToHard("limits.cpu", limitsCpu)
        .addToHard("requests.memory", mem)
        .addToHard("limits.memory", mem)
        .endSpec()
        .build();
  }

  /**
   * Any container in the pool namespace defaults to the class shape and may not exceed its limits.
   */
  public static HasMetadata limitRange(Input in) {
    Map<String, Quantity> shape = podShape(in);
    return new LimitRangeBuilder()
        .withMetadata(meta(in, "isolato-pool", true))
        .withNewSpec()
        .addNewLimit()
        .withType("Container")
        .withDefault(shape)
        .withDefaultRequest(shape)
        .withMax(podLimits(in))
        .endLimit()
        .endSpec()
        .build();
  }

  public static HasMetadata adminSecret(Input in) {
    String b64 =
        Base64.getEncoder()
            .encodeToString(PoolTokens.file(in.adminTokens()).getBytes(StandardCharsets.UTF_8));
    return new SecretBuilder()
        .withMetadata(meta(in, Workload.ADMIN_SECRET, true))
        .withType("Opaque")
        .addToData(Workload.ADMIN_TOKEN_KEY, b64)
        .build();
  }

  public static HasMetadata tableConfigMap(Input in) {
    return new ConfigMapBuilder()
        .withMetadata(meta(in, Workload.TABLE_CONFIGMAP, true))
        .addToData(TenantTable.FILE, in.tableJson())
        .build();
  }

  public static HasMetadata deployment(Input in) {
    SloClassSpec s = in.sloClass().getSpec();
    Map<String, String> podLabels = new LinkedHashMap<>(labels(in.pool()));
    podLabels.putAll(selector(in.pool()));
    podLabels.putAll(PodPlacement.podLabels(in.io(), s.placement));
    PodLimits disk = disk(in);
    PoolContainers.Pod pod =
        PoolContainers.of(
            s,
            withStorage(podShape(in), disk.ephemeralBytes()),
            withStorage(podLimits(in), disk.ephemeralBytes()),
            new Quantity(PodLimits.quantity(disk.scratchBytes())),
            containerSecurity(),
            in.gateImage());
    return new DeploymentBuilder()
        .withMetadata(meta(in, Workload.NAME, true))
        .withNewSpec()
        .withReplicas(in.plan().replicas())
        .withNewSelector()
        .withMatchLabels(selector(in.pool()))
        .endSelector()
        .withNewStrategy()
        .withType("RollingUpdate")
        .withNewRollingUpdate()
        .withMaxSurge(new IntOrString(SURGE))
        .withMaxUnavailable(new IntOrString(0))
        .endRollingUpdate()
        .endStrategy()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(podLabels)
        .endMetadata()
        .withNewSpec()
        .withPriorityClassName(priorityClassName(in.pool().sloClass()))
        .withEnableServiceLinks(false)
        .withAutomountServiceAccountToken(false)
        .withSecurityContext(podSecurity())
        .withTopologySpreadConstraints(PodPlacement.spread(selector(in.pool())))
        .withNodeSelector(PodPlacement.nodeSelector(s.placement))
        .withTolerations(PodPlacement.tolerations(s.placement))
        .withAffinity(PodPlacement.affinity(in.pool().sloClass(), in.io(), s.placement))
        .withContainers(pod.containers())
        .withVolumes(pod.volumes())
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  /** The pod's disk: the class's declared scratch, or derived from its tenants' io. */
  static PodLimits disk(Input in) {
    SloClassSpec s = in.sloClass().getSpec();
    if (s.storage != null && s.storage.scratch != null) {
      return PodLimits.withScratch(
          Quantity.getAmountInBytes(new Quantity(s.storage.scratch)).longValue());
    }
    long cpu = CalibrationStatusMapper.cpuMillis(podLimits(in).get("cpu").toString());
    return PodLimits.derived(cpu, in.io().maxIo());
  }

  /** Resources plus ephemeral-storage (requests == limits, like CPU and memory). */
  static Map<String, Quantity> withStorage(Map<String, Quantity> resources, long bytes) {
    Map<String, Quantity> r = new LinkedHashMap<>(resources);
    r.put("ephemeral-storage", new Quantity(PodLimits.quantity(bytes)));
    return r;
  }

  /**
   * Non-root, the runtime's seccomp profile: what the namespace's "restricted" Pod Security level
   * demands.
   */
  public static PodSecurityContext podSecurity() {
    return new PodSecurityContextBuilder()
        .withRunAsNonRoot(true)
        .withRunAsUser(POD_USER)
        .withRunAsGroup(POD_USER)
        .withNewSeccompProfile()
        .withType("RuntimeDefault")
        .endSeccompProfile()
        .build();
  }

  public static SecurityContext containerSecurity() {
    return new SecurityContextBuilder()
        .withRunAsNonRoot(true)
        .withReadOnlyRootFilesystem(true)
        .withAllowPrivilegeEscalation(false)
        .withNewCapabilities()
        .withDrop("ALL")
        .endCapabilities()
        .withNewSeccompProfile()
        .withType("RuntimeDefault")
        .endSeccompProfile()
        .build();
  }

  /** The filler's objects: the class's labels, marked with the filler role. */
  private static ObjectMeta fillerMeta(ObjectMeta m) {
    m.getLabels().put(ROLE_LABEL, FILLER_ROLE);
    return m;
  }

  /** Below every class (preempted first), and it never preempts anything itself. */
  public static HasMetadata fillerPriorityClass(SloClass c) {
    String name = c.getMetadata().getName();
    return new PriorityClassBuilder()
        .withNewMetadata()
        .withName(PoolNames.fillerPriorityClass(name))
        .withLabels(Map.of(MANAGED_BY, MANAGER, CLASS_LABEL, name, ROLE_LABEL, FILLER_ROLE))
        .withOwnerReferences(owner(c))
        .endMetadata()
        .withValue(FILLER_PRIORITY)
        .withPreemptionPolicy("Never")
        .withDescription(
            "Isolato filler of SLO class " + name + ": soaks idle CPU, yields it to every class")
        .build();
  }

  /**
   * One pod soaking idle CPU up to the headroom (SAC'20 Finding 5). Its minimal CPU request makes
   * the kernel give the class pods the CPU first; no port, so no Service, scrape or table push
   * reaches it, and its name label keeps it out of the class's pods.
   */
  public static HasMetadata fillerDeployment(Input in) {
    SloClassSpec s = in.sloClass().getSpec();
    VerticalHeadroom headroom = headroom(s);
    Map<String, String> selector =
        Map.of("app.kubernetes.io/name", Workload.FILLER_NAME, POOL_LABEL, in.pool().namespace());
    Map<String, String> podLabels =
        new LinkedHashMap<>(fillerMeta(meta(in, Workload.FILLER_NAME, true)).getLabels());
    podLabels.putAll(selector);
    Map<String, Quantity> requests =
        Map.of(
            "cpu",
            millis(VerticalHeadroom.FILLER_REQUEST_MILLIS),
            "memory",
            new Quantity(Workload.FILLER_MEMORY),
            "ephemeral-storage",
            new Quantity(PodLimits.quantity(PodLimits.LOG_ALLOWANCE)));
    Map<String, Quantity> limits =
        Map.of(
            "cpu",
            millis(headroom.fillerLimitMillis()),
            "memory",
            new Quantity(Workload.FILLER_MEMORY),
            "ephemeral-storage",
            new Quantity(PodLimits.quantity(PodLimits.LOG_ALLOWANCE)));
    return new DeploymentBuilder()
        .withMetadata(fillerMeta(meta(in, Workload.FILLER_NAME, true)))
        .withNewSpec()
        .withReplicas(VerticalHeadroom.FILLER_PODS)
        .withNewSelector()
        .withMatchLabels(selector)
        .endSelector()
        .withNewStrategy()
        .withType("Recreate")
        .endStrategy()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(podLabels)
        .endMetadata()
        .withNewSpec()
        .withPriorityClassName(PoolNames.fillerPriorityClass(in.pool().sloClass()))
        .withEnableServiceLinks(false)
        .withAutomountServiceAccountToken(false)
        .withTerminationGracePeriodSeconds(2L)
        .withSecurityContext(podSecurity())
        .addNewContainer()
        .withName("filler")
        .withImage(Workload.saasBenchImage(s))
        .withImagePullPolicy("IfNotPresent")
        .withArgs(Workload.fillerArgs())
        .withSecurityContext(containerSecurity())
        .withNewResources()
        .withRequests(requests)
        .withLimits(limits)
        .endResources()
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  /**
   * The plan's replica count is a floor: when the HPA has scaled the Deployment above it, keep the
   * larger count instead of fighting the autoscaler. The filler keeps its one pod.
   */
  public static HasMetadata floorReplicas(HasMetadata desired, Deployment live) {
    if (desired instanceof Deployment want
        && !isFiller(want)
        && live != null
        && live.getSpec() != null
        && live.getSpec().getReplicas() != null
        && want.getSpec().getReplicas() != null
        && live.getSpec().getReplicas() > want.getSpec().getReplicas()) {
      Deployment copy = new DeploymentBuilder(want).build();
      copy.getSpec().setReplicas(live.getSpec().getReplicas());
      return copy;
    }
    return desired;
  }

  public static HasMetadata service(Input in) {
    return new ServiceBuilder()
        .withMetadata(meta(in, Workload.NAME, true))
        .withNewSpec()
        .withType("ClusterIP")
        .withSelector(selector(in.pool()))
        .addNewPort()
        .withName("http")
        .withPort(Workload.PORT)
        .withTargetPort(new IntOrString(Workload.PORT))
        .endPort()
        .endSpec()
        .build();
  }

  /** The plan is the floor; the HPA adds pods up to the class bound at the pivot point. */
  public static HasMetadata autoscaler(Input in) {
    return autoscaler(in, in.plan().replicas());
  }

  /** The HPA with {@code min} as its floor (the plan, or a direct-path raise that still holds). */
  public static HasMetadata autoscaler(Input in, int min) {
    SloClassSpec s = in.sloClass().getSpec();
    return new HorizontalPodAutoscalerBuilder()
        .withMetadata(meta(in, Workload.NAME, true))
        .withNewSpec()
        .withNewScaleTargetRef()
        .withApiVersion("apps/v1")
        .withKind("Deployment")
        .withName(Workload.NAME)
        .endScaleTargetRef()
        .withMinReplicas(min)
        .withMaxReplicas(Math.max(min, s.maxReplicas))
        .addNewMetric()
        .withType("Resource")
        .withNewResource()
        .withName("cpu")
        .withNewTarget()
        .withType("Utilization")
        .withAverageUtilization(s.pivotPercent)
        .endTarget()
        .endResource()
        .endMetric()
        .endSpec()
        .build();
  }

  /**
   * The class's pod shape, with the CPU the plan chose among the class's candidate sizes (if any).
   */
  static Map<String, Quantity> podShape(Input in) {
    SloClassSpec s = in.sloClass().getSpec();
    return Map.of(
        "cpu",
        new Quantity(CalibrationStatusMapper.cpu(s, in.plan().podCpuMillis())),
        "memory",
        new Quantity(s.resources.memory));
  }

  /** A class pod's limits: its shape, with the headroom added to the CPU. */
  static Map<String, Quantity> podLimits(Input in) {
    SloClassSpec s = in.sloClass().getSpec();
    VerticalHeadroom headroom = headroom(s);
    if (headroom.headroomMillis() == 0) {
      return podShape(in);
    }
    long request =
        CalibrationStatusMapper.cpuMillis(CalibrationStatusMapper.cpu(s, in.plan().podCpuMillis()));
    return Map.of(
        "cpu",
        millis(headroom.podLimitMillis(request)),
        "memory",
        new Quantity(s.resources.memory));
  }

  static Quantity millis(long m) {
    return new Quantity(m + "m");
  }

  /** The sum of two quantities, in the first one's format. */
  static Quantity plus(Quantity a, String b) {
    BigDecimal sum = Quantity.getAmountInBytes(a).add(Quantity.getAmountInBytes(new Quantity(b)));
    return Quantity.fromNumericalAmount(sum, a.getFormat());
  }

  /** A quantity times n, in canonical form (what the API server would store). */
  static Quantity times(String quantity, int n) {
    BigDecimal amount =
        Quantity.getAmountInBytes(new Quantity(quantity)).multiply(BigDecimal.valueOf(n));
    return Quantity.fromNumericalAmount(amount, new Quantity(quantity).getFormat());
  }
}
