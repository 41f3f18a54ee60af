package dev.isolato.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

class KubernetesConfigTest {
  @TempDir Path dir;

  /**
   * Each bad kubeconfig (no file / not YAML / no current context) names the file, the setting and
   * what is wrong.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      missing.kubeconfig |                               | cannot read the kubeconfig {} (ISOLATO_KUBECONFIG): no such file
      garbage.kubeconfig | clusters: [this is not yaml   | the kubeconfig {} (ISOLATO_KUBECONFIG) is not usable: while parsing a flow sequence in reader, line 1, column 11
      empty.kubeconfig   | 'apiVersion: v1'               | the kubeconfig {} (ISOLATO_KUBECONFIG) is not usable: it has no current context
      """)
  void aBadKubeconfigIsAnInvalidSetting(String name, String content, String message)
      throws Exception {
    Path file = dir.resolve(name);
    if (content != null) {
      Files.writeString(file, content + "\n");
    }
    assertThatThrownBy(() -> KubernetesConfig.fromFile(file))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith(message.replace("{}", file.toString()));
  }

  @Test
  void aValidKubeconfigGivesItsServer() throws Exception {
    Path ok =
        Files.writeString(
            dir.resolve("ok.kubeconfig"),
            """
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
    var bad =
        new InvalidSettingException(
            "cannot read the kubeconfig /x (ISOLATO_KUBECONFIG): no such file",
            KubernetesConfig.KUBECONFIG_ACTION,
            null);
    FailureAnalysis analysis =
        new InvalidSettingFailureAnalyzer()
            .analyze(new BeanCreationException("apiKubernetesClient", bad));
    assertThat(analysis.getDescription()).isEqualTo(bad.getMessage());
    assertThat(analysis.getAction()).contains("ISOLATO_KUBECONFIG");
  }
}
