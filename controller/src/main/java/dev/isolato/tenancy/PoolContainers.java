package dev.isolato.tenancy;

import dev.isolato.tenancy.WorkloadTemplate.AppContainer;
import dev.isolato.tenancy.WorkloadTemplate.AppProbe;
import dev.isolato.tenancy.WorkloadTemplate.AppVolume;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The containers and volumes of a pool pod: the isolato-gate sidecar on the service port, in front
 * of the class's app (saas-bench on loopback, or the provider's spec.workload). Isolato's settings
 * win over the template's: resources (the pod size minus the gate's fixed share), the restricted
 * security context, and the table and admin volumes the gate reads.
 */
public final class PoolContainers {
  /** Isolato's volumes: the tenant table, the admin token, saas-bench's scratch directory. */
  static final String TABLE_VOLUME = "table";

  static final String ADMIN_VOLUME = "admin";
  static final String DATA_VOLUME = "data";

  private PoolContainers() {}

  /** A pool pod's containers (the app first: kubectl logs and exec default to it) and volumes. */
  public record Pod(List<Container> containers, List<Volume> volumes) {}

  /**
   * The pod of a class: the gate's fixed share comes out of its size, the app gets the rest.
   *
   * @param requests the whole pod's requests (the class's pod size)
   * @param limits the whole pod's limits (requests, with any headroom CPU added)
   * @param scratch size limit of saas-bench's scratch directory (its io stress)
   * @param gateImage the gate sidecar's image (isolato.pools.gate-image)
   */
  public static Pod of(
      SloClassSpec spec,
      Map<String, Quantity> requests,
      Map<String, Quantity> limits,
      Quantity scratch,
      SecurityContext isolatoSecurity,
      String gateImage) {
    Map<String, Quantity> gate = gateShare();
    Container app =
        Workload.isProvided(spec)
            ? provided(spec.workload.containers.get(0), isolatoSecurity)
            : saasBench(spec, isolatoSecurity);
    app.setResources(
        new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
            .withRequests(minus(requests, gate))
            .withLimits(minus(limits, gate))
            .build());
    List<Volume> volumes = new ArrayList<>();
    volumes.add(
        new VolumeBuilder()
            .withName(TABLE_VOLUME)
            .withNewConfigMap()
            .withName(Workload.TABLE_CONFIGMAP)
            .endConfigMap()
            .build());
    volumes.add(
        new VolumeBuilder()
            .withName(ADMIN_VOLUME)
            .withNewSecret()
            .withSecretName(Workload.ADMIN_SECRET)
            .endSecret()
            .build());
    if (Workload.isProvided(spec)) {
      if (spec.workload.volumes != null) {
        spec.workload.volumes.forEach(v -> volumes.add(volume(v)));
      }
    } else {
      volumes.add(
          new VolumeBuilder()
              .withName(DATA_VOLUME)
              .withNewEmptyDir()
              .withSizeLimit(scratch)
              .endEmptyDir()
              .build());
    }
    return new Pod(
        List.of(app, gate(spec, gate, isolatoSecurity, gateImage)), List.copyOf(volumes));
  }

  /**
   * The gate's fixed share of the pod (requests == limits): see {@link Workload#GATE_CPU_MILLIS}.
   */
  public static Map<String, Quantity> gateShare() {
    return Map.of(
        "cpu",
        new Quantity(Workload.GATE_CPU_MILLIS + "m"),
        "memory",
        new Quantity(Workload.GATE_MEMORY));
  }

  /** Whether a pod quantity of {@code resource} (cpu, memory) exceeds the gate's share. */
  public static boolean exceedsGate(String quantity, String resource) {
    return Quantity.getAmountInBytes(new Quantity(quantity))
            .compareTo(Quantity.getAmountInBytes(gateShare().get(resource)))
        > 0;
  }

  private static Container gate(
      SloClassSpec spec, Map<String, Quantity> share, SecurityContext security, String image) {
    return new ContainerBuilder()
        .withName(Workload.GATE_NAME)
        .withImage(image)
        .withImagePullPolicy("IfNotPresent")
        .withArgs(Workload.gateArgs(spec))
        .withSecurityContext(security)
        .addNewPort()
        .withName("http")
        .withContainerPort(Workload.PORT)
        .endPort()
        .withNewResources()
        .withRequests(share)
        .withLimits(share)
        .endResources()
        // the gate is ready only while the app accepts connections (GATE-CONTRACT.md); asked on
        // the probe port, whose thread waits for no tenant: on the service port, behind a full
        // loop on the gate's 50m, the probe timed out and the only pod left its Service
        .withNewReadinessProbe()
        .withNewHttpGet()
        .withPath("/readyz")
        .withPort(new IntOrString(Workload.PROBE_PORT))
        .endHttpGet()
        .withPeriodSeconds(1)
        .withFailureThreshold(2)
        .endReadinessProbe()
        // a handshake, not a request: the kernel completes it while the gate's listen backlog has
        // room, which it keeps while its loop runs. Under overload the gate (50m) answers HTTP
        // behind every queued connection, and an HTTP probe timed out and had it restarted with
        // every waiting request dropped (make run's httpbin pool, 2026-11-29)
        .withNewLivenessProbe()
        .withNewTcpSocket()
        .withPort(new IntOrString(Workload.PORT))
        .endTcpSocket()
        .withPeriodSeconds(10)
        .endLivenessProbe()
        .withVolumeMounts(
            mount(TABLE_VOLUME, Workload.TABLE_DIR, true),
            mount(ADMIN_VOLUME, Workload.ADMIN_DIR, true))
        .build();
  }

  /** saas-bench on loopback: only the gate reaches it, and the gate's readiness covers it. */
  private static Container saasBench(SloClassSpec spec, SecurityContext security) {
    return new ContainerBuilder()
        .withName(Workload.NAME)
        .withImage(Workload.saasBenchImage(spec))
        .withImagePullPolicy("IfNotPresent")
        .withArgs(Workload.args())
        .withSecurityContext(security)
        .withVolumeMounts(
            mount(TABLE_VOLUME, Workload.TABLE_DIR, true),
            mount(ADMIN_VOLUME, Workload.ADMIN_DIR, true),
            mount(DATA_VOLUME, Workload.DATA_DIR, false))
        .build();
  }

  /** The provider's container, with Isolato's security settings over its own. */
  private static Container provided(AppContainer c, SecurityContext isolato) {
    int port = c.ports.get(0).containerPort;
    ContainerBuilder b =
        new ContainerBuilder()
            .withName(c.name)
            .withImage(c.image)
            .withImagePullPolicy("IfNotPresent")
            .withCommand(c.command)
            .withArgs(c.args)
            .withSecurityContext(security(c, isolato))
            .addNewPort()
            .withName(c.ports.get(0).name)
            .withContainerPort(port)
            .endPort()
            .withReadinessProbe(
                c.readinessProbe == null ? tcpProbe(port) : probe(c.readinessProbe, port))
            .withLivenessProbe(c.livenessProbe == null ? null : probe(c.livenessProbe, port));
    if (c.env != null) {
      c.env.forEach(e -> b.addToEnv(new EnvVar(e.name, e.value, null)));
    }
    if (c.volumeMounts != null) {
      c.volumeMounts.forEach(
          m ->
              b.addToVolumeMounts(
                  new VolumeMountBuilder()
                      .withName(m.name)
                      .withMountPath(m.mountPath)
                      .withReadOnly(m.readOnly)
                      .withSubPath(m.subPath)
                      .build()));
    }
    return b.build();
  }

  /**
   * Isolato's restricted settings; the template may choose its user and group and whether its root
   * file system is writable (its default: writable, as the image expects), nothing else.
   */
  private static SecurityContext security(AppContainer c, SecurityContext isolato) {
    SecurityContextBuilder b =
        new SecurityContextBuilder(isolato).withReadOnlyRootFilesystem(false);
    var s = c.securityContext;
    if (s != null) {
      if (s.runAsUser != null) {
        b.withRunAsUser(s.runAsUser);
      }
      if (s.runAsGroup != null) {
        b.withRunAsGroup(s.runAsGroup);
      }
      if (s.readOnlyRootFilesystem != null) {
        b.withReadOnlyRootFilesystem(s.readOnlyRootFilesystem);
      }
      if (s.capabilities != null && s.capabilities.add != null && !s.capabilities.add.isEmpty()) {
        b.editCapabilities().withAdd(s.capabilities.add).endCapabilities();
      }
    }
    return b.build();
  }

  private static Probe tcpProbe(int port) {
    return new ProbeBuilder()
        .withNewTcpSocket()
        .withPort(new IntOrString(port))
        .endTcpSocket()
        .withPeriodSeconds(1)
        .withFailureThreshold(2)
        .build();
  }

  private static Probe probe(AppProbe p, int appPort) {
    ProbeBuilder b =
        new ProbeBuilder()
            .withInitialDelaySeconds(p.initialDelaySeconds)
            .withPeriodSeconds(p.periodSeconds)
            .withTimeoutSeconds(p.timeoutSeconds)
            .withFailureThreshold(p.failureThreshold);
    if (p.httpGet != null) {
      b.withNewHttpGet()
          .withPath(p.httpGet.path == null ? "/" : p.httpGet.path)
          .withPort(new IntOrString(p.httpGet.port == null ? appPort : p.httpGet.port))
          .endHttpGet();
    } else {
      int port = p.tcpSocket == null || p.tcpSocket.port == null ? appPort : p.tcpSocket.port;
      b.withNewTcpSocket().withPort(new IntOrString(port)).endTcpSocket();
    }
    return b.build();
  }

  private static Volume volume(AppVolume v) {
    VolumeBuilder b = new VolumeBuilder().withName(v.name);
    if (v.configMap != null) {
      b.withNewConfigMap().withName(v.configMap.name).endConfigMap();
    } else if (v.secret != null) {
      b.withNewSecret().withSecretName(v.secret.secretName).endSecret();
    } else {
      b.withNewEmptyDir()
          .withSizeLimit(
              v.emptyDir == null || v.emptyDir.sizeLimit == null
                  ? null
                  : new Quantity(v.emptyDir.sizeLimit))
          .endEmptyDir();
    }
    return b.build();
  }

  private static VolumeMount mount(String name, String path, boolean readOnly) {
    return new VolumeMountBuilder()
        .withName(name)
        .withMountPath(path)
        .withReadOnly(readOnly ? true : null)
        .build();
  }

  /** Mi when whole (what the API server would store), else bytes. */
  private static Quantity mebibytes(BigDecimal bytes) {
    BigDecimal mi = BigDecimal.valueOf(1024L * 1024);
    return bytes.remainder(mi).signum() == 0
        ? new Quantity(bytes.divide(mi).toBigInteger() + "Mi")
        : new Quantity(bytes.toBigInteger().toString());
  }

  /**
   * The app's share: the pod's quantity minus the gate's, in the pod quantity's format; a resource
   * the gate takes none of (ephemeral storage) is all the app's.
   */
  static Map<String, Quantity> minus(Map<String, Quantity> pod, Map<String, Quantity> gate) {
    Map<String, Quantity> app = new java.util.LinkedHashMap<>();
    pod.forEach(
        (k, q) -> {
          if (!gate.containsKey(k)) {
            app.put(k, q);
            return;
          }
          BigDecimal rest =
              Quantity.getAmountInBytes(q).subtract(Quantity.getAmountInBytes(gate.get(k)));
          app.put(
              k,
              "cpu".equals(k)
                  ? new Quantity(rest.movePointRight(3).longValue() + "m")
                  : mebibytes(rest));
        });
    return Map.copyOf(app);
  }
}
