package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.calibration.FieldError;
import dev.isolato.tenancy.WorkloadTemplate.AppPort;
import dev.isolato.tenancy.WorkloadTemplate.AppSecurityContext;
import dev.isolato.tenancy.WorkloadTemplate.AppVolume;
import dev.isolato.tenancy.WorkloadTemplate.Capabilities;
import dev.isolato.tenancy.WorkloadTemplate.HostPath;
import dev.isolato.tenancy.WorkloadTemplate.SeccompProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadRulesTest {
  private final SloClassSpec spec = new SloClassSpec();

  WorkloadRulesTest() {
    spec.workload = WorkloadFixtures.httpbin();
  }

  private List<String> fields() {
    return WorkloadRules.problems(spec).stream().map(FieldError::field).toList();
  }

  private WorkloadTemplate.AppContainer app() {
    return spec.workload.containers.get(0);
  }

  @Test
  void aPlainHttpServiceOnItsOwnPortPasses() {
    assertThat(WorkloadRules.problems(spec)).isEmpty();
    spec.workload = null;
    assertThat(WorkloadRules.problems(spec)).as("saas-bench classes").isEmpty();
  }

  @Test
  void exactlyOneContainerWithExactlyOnePortThatIsNotTheGates() {
    app().ports.get(0).containerPort = 8080;
    assertThat(WorkloadRules.problems(spec))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.field()).isEqualTo("spec.workload.containers[0].ports[0].containerPort");
              assertThat(e.message()).contains("8080").contains("8079");
            });
    app().ports.get(0).containerPort = 8079;
    assertThat(fields()).containsExactly("spec.workload.containers[0].ports[0].containerPort");
    AppPort second = new AppPort();
    second.containerPort = 9000;
    app().ports = List.of(new AppPort(), second);
    assertThat(fields()).containsExactly("spec.workload.containers[0].ports");
    spec.workload.containers = List.of(app(), WorkloadFixtures.httpbin().containers.get(0));
    assertThat(fields()).containsExactly("spec.workload.containers");
  }

  @Test
  void theGatesNamesAreTaken() {
    app().name = "isolato-gate";
    app().ports.get(0).name = "http";
    AppVolume table = new AppVolume();
    table.name = "table";
    table.emptyDir = new WorkloadTemplate.EmptyDir();
    spec.workload.volumes = List.of(table);
    assertThat(fields())
        .containsExactly(
            "spec.workload.containers[0].name",
            "spec.workload.containers[0].ports[0].name",
            "spec.workload.volumes[0].name");
  }

  @Test
  void everyRestrictedPodSecurityViolationIsNamedByItsField() {
    spec.workload.hostNetwork = true;
    spec.workload.hostPID = true;
    spec.workload.hostIPC = false;
    app().ports.get(0).hostPort = 80;
    AppSecurityContext s = new AppSecurityContext();
    s.runAsNonRoot = false;
    s.runAsUser = 0L;
    s.privileged = true;
    s.allowPrivilegeEscalation = true;
    s.capabilities = new Capabilities();
    s.capabilities.add = List.of("NET_BIND_SERVICE", "SYS_ADMIN");
    s.seccompProfile = new SeccompProfile();
    s.seccompProfile.type = "Unconfined";
    app().securityContext = s;
    AppVolume host = new AppVolume();
    host.name = "root";
    host.hostPath = new HostPath();
    host.hostPath.path = "/";
    spec.workload.volumes = List.of(host);
    String c = "spec.workload.containers[0].";
    assertThat(fields())
        .containsExactlyInAnyOrder(
            "spec.workload.hostNetwork",
            "spec.workload.hostPID",
            c + "ports[0].hostPort",
            c + "securityContext.runAsNonRoot",
            c + "securityContext.runAsUser",
            c + "securityContext.privileged",
            c + "securityContext.allowPrivilegeEscalation",
            c + "securityContext.capabilities.add",
            c + "securityContext.seccompProfile.type",
            "spec.workload.volumes[0].hostPath");
  }

  @Test
  void whatTheProfileAllowsPasses() {
    AppSecurityContext s = new AppSecurityContext();
    s.runAsNonRoot = true;
    s.runAsUser = 1000L;
    s.privileged = false;
    s.allowPrivilegeEscalation = false;
    s.capabilities = new Capabilities();
    s.capabilities.add = List.of("NET_BIND_SERVICE");
    s.capabilities.drop = List.of("ALL");
    s.seccompProfile = new SeccompProfile();
    s.seccompProfile.type = "RuntimeDefault";
    app().securityContext = s;
    app().ports.get(0).hostPort = 0;
    spec.workload.hostNetwork = false;
    assertThat(WorkloadRules.problems(spec)).isEmpty();
  }

  @Test
  void nullElementsAreFieldErrorsNotCrashes() {
    app().ports = java.util.Arrays.asList((AppPort) null);
    app().env = java.util.Arrays.asList((WorkloadTemplate.EnvVar) null);
    app().volumeMounts = java.util.Arrays.asList((WorkloadTemplate.VolumeMount) null);
    spec.workload.volumes = java.util.Arrays.asList((AppVolume) null);
    assertThat(fields())
        .containsExactly(
            "spec.workload.containers[0].ports[0]",
            "spec.workload.containers[0].env[0].name",
            "spec.workload.containers[0].volumeMounts[0].name",
            "spec.workload.volumes[0]");
    spec.workload.containers = java.util.Arrays.asList((WorkloadTemplate.AppContainer) null);
    assertThat(fields()).contains("spec.workload.containers[0]");
  }

  @Test
  void aClassRunsAnImageOrAWorkloadNotBoth() {
    spec.image = "localhost/isolato/saas-bench:dev";
    assertThat(fields()).containsExactly("spec.workload");
  }
}
