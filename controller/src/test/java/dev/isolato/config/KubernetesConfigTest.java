package dev.isolato.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

class KubernetesConfigTest {
  @TempDir Path dir;

  @Test
  void aMissingKubeconfigSaysWhichFileAndSetting() {
    Path missing = dir.resolve("missing.kubeconfig");
    assertThatThrownBy(() -> KubernetesConfig.fromFile(missing))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("cannot read the kubeconfig " + missing + " (ISOLATO_KUBECONFIG): no such file");
  }

  @Test
  void aMalformedKubeconfigSaysWhatIsWrong() throws Exception {
    Path garbage = Files.writeString(dir.resolve("garbage.kubeconfig"), "clusters: [this is not yaml\n");
    assertThatThrownBy(() -> KubernetesConfig.fromFile(garbage))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("the kubeconfig " + garbage + " (ISOLATO_KUBECONFIG) is not usable: ");
  }

  @Test
  void aKubeconfigWithoutACurrentContextIsRefused() throws Exception {
    Path empty = Files.writeString(dir.resolve("empty.kubeconfig"), "apiVersion: v1\nkind: Config\n");
    assertThatThrownBy(() -> KubernetesConfig.fromFile(empty))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageEndingWith("is not usable: it has no current context");
  }

  @Test
  void aValidKubeconfigGivesItsServer() throws Exception {
    Path ok = Files.writeString(dir.resolve("ok.kubeconfig"), """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443"}}]
        users: [{name: u, user: {token: t}}]
        contexts: [{name: x, context: {cluster: c, user: u}}]
        current-context: x
        """);
    assertThat(KubernetesConfig.fromFile(ok).getMasterUrl()).startsWith("https://127.0.0.1:6443");
  }

  @Test
  void theFailureAnalyzerReportsTheSettingNotTheStackTrace() {
    var bad = new InvalidSettingException("cannot read the kubeconfig /x (ISOLATO_KUBECONFIG): no such file",
        KubernetesConfig.KUBECONFIG_ACTION, null);
    FailureAnalysis analysis = new InvalidSettingFailureAnalyzer().analyze(new BeanCreationException("apiKubernetesClient", bad));
    assertThat(analysis.getDescription()).isEqualTo(bad.getMessage());
    assertThat(analysis.getAction()).contains("ISOLATO_KUBECONFIG");
  }
}
