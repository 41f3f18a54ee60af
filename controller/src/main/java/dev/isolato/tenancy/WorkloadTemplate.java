package dev.isolato.tenancy;

import static dev.isolato.tenancy.WorkloadRules.*;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/**
 * The part of a pool pod the provider owns (spec.workload): its app container and volumes. Isolato
 * owns the rest (resources, replicas, priority, labels, the gate sidecar, the restricted Pod
 * Security context). Fields that could only break the restricted profile (privileged, hostPort,
 * hostPath, ...) are part of the schema so that a template setting them is refused with the field
 * named, instead of being silently pruned; {@link WorkloadRules} holds each rule once, as the CEL
 * the CRD carries and as the check the REST API runs.
 */
public class WorkloadTemplate {
  @Required
  @Size(min = 1, max = 1)
  @JsonPropertyDescription(
      "The app container: exactly one, serving HTTP on its one port (not 8080, the gate's).")
  public List<AppContainer> containers;

  @Size(max = MAX_VOLUMES)
  @JsonPropertyDescription("Pod volumes the app container mounts (no hostPath).")
  public List<AppVolume> volumes;

  @ValidationRule(value = MUST_BE_FALSE, message = HOST_NAMESPACE_MESSAGE)
  public Boolean hostNetwork;

  @ValidationRule(value = MUST_BE_FALSE, message = HOST_NAMESPACE_MESSAGE)
  public Boolean hostPID;

  @ValidationRule(value = MUST_BE_FALSE, message = HOST_NAMESPACE_MESSAGE)
  public Boolean hostIPC;

  /** The provider's app container. */
  public static class AppContainer {
    @Required
    @Pattern(SpecLimits.DNS1123_LABEL)
    @Size(max = 63)
    @ValidationRule(value = NOT_RESERVED_NAME, message = RESERVED_NAME_MESSAGE)
    public String name;

    @Required
    @Pattern(SpecLimits.IMAGE)
    @Size(max = SpecLimits.MAX_IMAGE_LENGTH)
    public String image;

    @Size(max = MAX_ARGS)
    public List<String> command;

    @Size(max = MAX_ARGS)
    public List<String> args;

    @Size(max = MAX_ENV)
    public List<EnvVar> env;

    @Required
    @Size(min = 1, max = 1)
    @JsonPropertyDescription("The service port: exactly one; the gate forwards to it on loopback.")
    public List<AppPort> ports;

    @JsonPropertyDescription("Readiness probe of the app (default: a TCP check of its port).")
    public AppProbe readinessProbe;

    public AppProbe livenessProbe;

    @Size(max = MAX_VOLUMES)
    public List<VolumeMount> volumeMounts;

    @JsonPropertyDescription(
        "Optional; Isolato sets non-root, no privilege escalation, drop ALL, seccomp RuntimeDefault."
            + " Values contradicting the restricted Pod Security profile are refused.")
    public AppSecurityContext securityContext;
  }

  /** An environment variable with a literal value. */
  public static class EnvVar {
    @Required
    @Pattern(ENV_NAME)
    public String name;

    public String value;
  }

  /** The app's one port. */
  public static class AppPort {
    @Pattern(SpecLimits.DNS1123_LABEL)
    @Size(max = 15)
    @ValidationRule(value = NOT_GATE_PORT_NAME, message = GATE_PORT_NAME_MESSAGE)
    public String name;

    @Required
    @Min(1)
    @Max(65535)
    @ValidationRule(value = NOT_GATE_PORT, message = GATE_PORT_MESSAGE)
    public int containerPort;

    @ValidationRule(value = MUST_BE_ZERO, message = HOST_PORT_MESSAGE)
    public Integer hostPort;
  }

  /** An HTTP GET or TCP probe; port defaults to the app port. */
  public static class AppProbe {
    public HttpGet httpGet;
    public TcpSocket tcpSocket;

    @Min(0)
    @Max(3600)
    public Integer initialDelaySeconds;

    @Min(1)
    @Max(3600)
    public Integer periodSeconds;

    @Min(1)
    @Max(3600)
    public Integer timeoutSeconds;

    @Min(1)
    @Max(100)
    public Integer failureThreshold;
  }

  /** GET of a path. */
  public static class HttpGet {
    @Pattern("^/.*$")
    public String path;

    @Min(1)
    @Max(65535)
    public Integer port;
  }

  /** A TCP connect. */
  public static class TcpSocket {
    @Min(1)
    @Max(65535)
    public Integer port;
  }

  /** A volume mounted into the app container. */
  public static class VolumeMount {
    @Required
    @Pattern(SpecLimits.DNS1123_LABEL)
    @ValidationRule(value = NOT_RESERVED_VOLUME, message = RESERVED_VOLUME_MESSAGE)
    public String name;

    @Required
    @Pattern("^/.*$")
    public String mountPath;

    public Boolean readOnly;
    public String subPath;
  }

  /** A pod volume: emptyDir, configMap or secret (hostPath is refused). */
  public static class AppVolume {
    @Required
    @Pattern(SpecLimits.DNS1123_LABEL)
    @ValidationRule(value = NOT_RESERVED_VOLUME, message = RESERVED_VOLUME_MESSAGE)
    public String name;

    public EmptyDir emptyDir;
    public NamedSource configMap;
    public SecretSource secret;

    @ValidationRule(value = ABSENT, message = HOST_PATH_MESSAGE)
    public HostPath hostPath;
  }

  /** Scratch space. */
  public static class EmptyDir {
    @Pattern(SpecLimits.POSITIVE_QUANTITY)
    public String sizeLimit;
  }

  /** A ConfigMap in the pool namespace. */
  public static class NamedSource {
    @Required
    @Pattern(SpecLimits.DNS1123_LABEL)
    public String name;
  }

  /** A Secret in the pool namespace. */
  public static class SecretSource {
    @Required
    @Pattern(SpecLimits.DNS1123_LABEL)
    public String secretName;
  }

  /** Only to be refused. */
  public static class HostPath {
    public String path;
  }

  /** What a container may say about its security; Isolato fills in the rest. */
  public static class AppSecurityContext {
    @ValidationRule(value = MUST_BE_TRUE, message = NON_ROOT_MESSAGE)
    public Boolean runAsNonRoot;

    @ValidationRule(value = NOT_ZERO, message = NON_ROOT_MESSAGE)
    public Long runAsUser;

    @Min(0)
    public Long runAsGroup;

    @ValidationRule(value = MUST_BE_FALSE, message = PRIVILEGED_MESSAGE)
    public Boolean privileged;

    @ValidationRule(value = MUST_BE_FALSE, message = ESCALATION_MESSAGE)
    public Boolean allowPrivilegeEscalation;

    public Boolean readOnlyRootFilesystem;

    public Capabilities capabilities;

    public SeccompProfile seccompProfile;
  }

  /** Capabilities: ALL are dropped; only NET_BIND_SERVICE may be added back. */
  public static class Capabilities {
    @Size(max = MAX_CAPABILITIES)
    @ValidationRule(value = ONLY_NET_BIND, message = CAPABILITY_MESSAGE)
    public List<String> add;

    @Size(max = MAX_CAPABILITIES)
    public List<String> drop;
  }

  /** The seccomp profile: RuntimeDefault. */
  public static class SeccompProfile {
    @ValidationRule(value = RUNTIME_DEFAULT, message = SECCOMP_MESSAGE)
    public String type;
  }
}
