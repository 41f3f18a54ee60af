package dev.isolato.tenancy;

import dev.isolato.calibration.FieldError;
import dev.isolato.tenancy.WorkloadTemplate.AppContainer;
import dev.isolato.tenancy.WorkloadTemplate.AppPort;
import dev.isolato.tenancy.WorkloadTemplate.AppSecurityContext;
import dev.isolato.tenancy.WorkloadTemplate.AppVolume;
import dev.isolato.tenancy.WorkloadTemplate.VolumeMount;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a provider's pod template (spec.workload) must meet: one app container with one port that is
 * not the gate's, and nothing the restricted Pod Security profile forbids. Each rule is written
 * once here: its CEL expression (the CRD's x-kubernetes-validations, through the annotations on
 * {@link WorkloadTemplate}) and its message sit next to the Java check the REST API runs; both
 * sides name the same field and ValidationAgreementIT holds them to the same verdicts on a real API
 * server.
 */
public final class WorkloadRules {
  /** The gate's container name; the app may not take it. */
  public static final String GATE_CONTAINER = "isolato-gate";

  /** Volumes Isolato mounts into the gate (and saas-bench); a template may not reuse the names. */
  public static final Set<String> RESERVED_VOLUMES = Set.of("table", "admin", "data");

  public static final int MAX_VOLUMES = 16;
  public static final int MAX_ENV = 128;
  public static final int MAX_ARGS = 128;
  public static final int MAX_CAPABILITIES = 64;

  /** A C-identifier-like environment variable name (what kubectl accepts for most images). */
  public static final String ENV_NAME = "^[-._a-zA-Z][-._a-zA-Z0-9]*$";

  // CEL (self = the annotated field) and the message the API server and the REST API give.
  public static final String MUST_BE_FALSE = "!self";
  public static final String MUST_BE_TRUE = "self";
  public static final String MUST_BE_ZERO = "self == 0";
  public static final String NOT_ZERO = "self != 0";
  public static final String ABSENT = "false";
  public static final String NOT_GATE_PORT =
      "self != " + Workload.PORT + " && self != " + Workload.PROBE_PORT;
  public static final String NOT_RESERVED_NAME = "self != '" + GATE_CONTAINER + "'";

  /** The gate's port name (the Service and the Prometheus discovery look for it). */
  public static final String GATE_PORT_NAME = "http";

  public static final String NOT_GATE_PORT_NAME = "self != '" + GATE_PORT_NAME + "'";
  public static final String NOT_RESERVED_VOLUME = "!(self in ['table', 'admin', 'data'])";
  public static final String ONLY_NET_BIND = "self.all(c, c == 'NET_BIND_SERVICE')";
  public static final String RUNTIME_DEFAULT = "self == 'RuntimeDefault'";

  /**
   * A pod must hold more than the gate's fixed share (Workload.GATE_CPU_MILLIS, GATE_MEMORY), or
   * its app would get nothing. A malformed quantity is left to the field's pattern.
   */
  public static final String CPU_ABOVE_GATE =
      "!isQuantity(self.cpu) || quantity(self.cpu).isGreaterThan(quantity('"
          + Workload.GATE_CPU_MILLIS
          + "m'))";

  public static final String MEMORY_ABOVE_GATE =
      "!isQuantity(self.memory) || quantity(self.memory).isGreaterThan(quantity('"
          + Workload.GATE_MEMORY
          + "'))";

  public static final String CANDIDATES_ABOVE_GATE =
      "!has(self.cpuCandidates) || self.cpuCandidates.all(c, !isQuantity(c) ||"
          + " quantity(c).isGreaterThan(quantity('"
          + Workload.GATE_CPU_MILLIS
          + "m')))";

  public static final String POD_SIZE_MESSAGE =
      "must exceed the isolato-gate sidecar's fixed share ("
          + Workload.GATE_CPU_MILLIS
          + "m CPU, "
          + Workload.GATE_MEMORY
          + " memory): the app gets the rest of the pod";

  /** The class-level rule: a class runs spec.image or spec.workload, not both. */
  public static final String IMAGE_OR_WORKLOAD = "!has(self.image) || !has(self.workload)";

  public static final String HOST_NAMESPACE_MESSAGE =
      "must be false: the restricted Pod Security profile forbids host namespaces";
  public static final String RESERVED_NAME_MESSAGE =
      "must not be " + GATE_CONTAINER + " (the gate sidecar's name)";
  public static final String RESERVED_VOLUME_MESSAGE =
      "must not be table, admin or data (volumes Isolato mounts)";
  public static final String GATE_PORT_MESSAGE =
      "must not be "
          + Workload.PORT
          + " or "
          + Workload.PROBE_PORT
          + ": the gate listens there (service and probes) and forwards to the app's port";
  public static final String GATE_PORT_NAME_MESSAGE =
      "must not be " + GATE_PORT_NAME + ": the gate's port has that name";
  public static final String HOST_PORT_MESSAGE =
      "must be 0 or absent: the restricted Pod Security profile forbids host ports";
  public static final String HOST_PATH_MESSAGE =
      "is forbidden by the restricted Pod Security profile (use emptyDir, configMap or secret)";
  public static final String NON_ROOT_MESSAGE =
      "must run as non-root: the restricted Pod Security profile requires it";
  public static final String PRIVILEGED_MESSAGE =
      "must be false: the restricted Pod Security profile forbids privileged containers";
  public static final String ESCALATION_MESSAGE =
      "must be false: the restricted Pod Security profile forbids privilege escalation";
  public static final String CAPABILITY_MESSAGE =
      "may only add NET_BIND_SERVICE: the restricted Pod Security profile drops ALL";
  public static final String SECCOMP_MESSAGE =
      "must be RuntimeDefault: the profile Isolato runs every pool pod with";
  public static final String IMAGE_OR_WORKLOAD_MESSAGE =
      "set either image (saas-bench behind the gate) or workload, not both";

  private static final Pattern LABEL = Pattern.compile(SpecLimits.DNS1123_LABEL);
  private static final Pattern IMAGE = Pattern.compile(SpecLimits.IMAGE);
  private static final Pattern ENV = Pattern.compile(ENV_NAME);

  private WorkloadRules() {}

  /** Every problem of a class's workload, each naming its field (empty when it can run). */
  public static List<FieldError> problems(SloClassSpec s) {
    List<FieldError> e = new ArrayList<>();
    if (s == null || s.workload == null) {
      return e;
    }
    if (s.image != null) {
      e.add(new FieldError("spec.workload", IMAGE_OR_WORKLOAD_MESSAGE));
    }
    WorkloadTemplate w = s.workload;
    String at = "spec.workload.";
    notTrue(e, at + "hostNetwork", w.hostNetwork, HOST_NAMESPACE_MESSAGE);
    notTrue(e, at + "hostPID", w.hostPID, HOST_NAMESPACE_MESSAGE);
    notTrue(e, at + "hostIPC", w.hostIPC, HOST_NAMESPACE_MESSAGE);
    if (w.containers == null || w.containers.size() != 1) {
      e.add(
          new FieldError(
              at + "containers",
              "must hold exactly one container, had "
                  + (w.containers == null ? 0 : w.containers.size())));
    } else if (w.containers.get(0) == null) {
      e.add(new FieldError(at + "containers[0]", "must be a container, was null"));
    } else {
      container(e, at + "containers[0].", w.containers.get(0));
    }
    List<AppVolume> volumes = w.volumes == null ? List.of() : w.volumes;
    if (volumes.size() > MAX_VOLUMES) {
      e.add(new FieldError(at + "volumes", "must have at most " + MAX_VOLUMES + " volumes"));
    }
    for (int i = 0; i < volumes.size(); i++) {
      AppVolume v = volumes.get(i);
      if (v == null) {
        e.add(new FieldError(at + "volumes[" + i + "]", "must be a volume, was null"));
        continue;
      }
      String vAt = at + "volumes[" + i + "].";
      volumeName(e, vAt + "name", v.name);
      if (v.hostPath != null) {
        e.add(new FieldError(vAt + "hostPath", HOST_PATH_MESSAGE));
      }
    }
    return e;
  }

  private static void container(List<FieldError> e, String at, AppContainer c) {
    if (c.name == null || !LABEL.matcher(c.name).matches() || c.name.length() > 63) {
      e.add(new FieldError(at + "name", "must be a DNS-1123 label"));
    } else if (c.name.equals(GATE_CONTAINER)) {
      e.add(new FieldError(at + "name", RESERVED_NAME_MESSAGE));
    }
    if (c.image == null
        || c.image.length() > SpecLimits.MAX_IMAGE_LENGTH
        || !IMAGE.matcher(c.image).matches()) {
      e.add(new FieldError(at + "image", "must be an image reference without spaces"));
    }
    if (c.ports == null || c.ports.size() != 1) {
      e.add(
          new FieldError(
              at + "ports",
              "must hold exactly one port (the service's), had "
                  + (c.ports == null ? 0 : c.ports.size())));
    } else if (c.ports.get(0) == null) {
      e.add(new FieldError(at + "ports[0]", "must be a port, was null"));
    } else {
      port(e, at + "ports[0].", c.ports.get(0));
    }
    if (c.env != null) {
      for (int i = 0; i < c.env.size(); i++) {
        String name = c.env.get(i) == null ? null : c.env.get(i).name;
        if (name == null || !ENV.matcher(name).matches()) {
          e.add(new FieldError(at + "env[" + i + "].name", "must be a variable name"));
        }
      }
    }
    if (c.volumeMounts != null) {
      for (int i = 0; i < c.volumeMounts.size(); i++) {
        VolumeMount m = c.volumeMounts.get(i);
        volumeName(e, at + "volumeMounts[" + i + "].name", m == null ? null : m.name);
      }
    }
    security(e, at + "securityContext.", c.securityContext);
  }

  private static void port(List<FieldError> e, String at, AppPort p) {
    if (p.containerPort < 1 || p.containerPort > 65535) {
      e.add(new FieldError(at + "containerPort", "must be between 1 and 65535"));
    } else if (p.containerPort == Workload.PORT || p.containerPort == Workload.PROBE_PORT) {
      e.add(new FieldError(at + "containerPort", GATE_PORT_MESSAGE));
    }
    if (GATE_PORT_NAME.equals(p.name)) {
      e.add(new FieldError(at + "name", GATE_PORT_NAME_MESSAGE));
    }
    if (p.hostPort != null && p.hostPort != 0) {
      e.add(new FieldError(at + "hostPort", HOST_PORT_MESSAGE));
    }
  }

  private static void security(List<FieldError> e, String at, AppSecurityContext s) {
    if (s == null) {
      return;
    }
    if (Boolean.FALSE.equals(s.runAsNonRoot)) {
      e.add(new FieldError(at + "runAsNonRoot", NON_ROOT_MESSAGE));
    }
    if (s.runAsUser != null && s.runAsUser == 0) {
      e.add(new FieldError(at + "runAsUser", NON_ROOT_MESSAGE));
    }
    notTrue(e, at + "privileged", s.privileged, PRIVILEGED_MESSAGE);
    notTrue(e, at + "allowPrivilegeEscalation", s.allowPrivilegeEscalation, ESCALATION_MESSAGE);
    if (s.capabilities != null
        && s.capabilities.add != null
        && !s.capabilities.add.stream().allMatch(c -> "NET_BIND_SERVICE".equals(c))) {
      e.add(new FieldError(at + "capabilities.add", CAPABILITY_MESSAGE));
    }
    if (s.seccompProfile != null
        && s.seccompProfile.type != null
        && !s.seccompProfile.type.equals("RuntimeDefault")) {
      e.add(new FieldError(at + "seccompProfile.type", SECCOMP_MESSAGE));
    }
  }

  private static void volumeName(List<FieldError> e, String field, String name) {
    if (name == null || !LABEL.matcher(name).matches()) {
      e.add(new FieldError(field, "must be a DNS-1123 label"));
    } else if (RESERVED_VOLUMES.contains(name)) {
      e.add(new FieldError(field, RESERVED_VOLUME_MESSAGE));
    }
  }

  private static void notTrue(List<FieldError> e, String field, Boolean v, String message) {
    if (Boolean.TRUE.equals(v)) {
      e.add(new FieldError(field, message));
    }
  }
}
