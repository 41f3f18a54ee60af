package dev.isolato.it;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * One real kube-apiserver + etcd per test JVM (fabric8 kube-api-test, offline). The binaries are
 * the ones localkube builds; kube-api-test wants them as {@code
 * <dir>/k8s/<version>-linux-amd64/{kube-apiserver,etcd,kubectl}}, so that layout is made of
 * symlinks here.
 */
public final class RealApiServer {
  static final String VERSION = "1.34.4";
  private static KubeAPIServer server;
  private static Path kubeconfig;

  private RealApiServer() {}

  /** Starts the server once; returns the path of an admin kubeconfig for it. */
  public static synchronized Path kubeconfig() {
    if (server == null) {
      Path dir =
          Path.of(System.getProperty("kubeApiTestDir", "target/kube-api-test")).toAbsolutePath();
      linkBinaries(dir);
      server =
          new KubeAPIServer(
              KubeAPIServerConfigBuilder.anAPIServerConfig()
                  .withTestDir(dir.toString())
                  .withOfflineMode(true)
                  .withApiServerVersion(VERSION)
                  .withUpdateKubeConfig(false)
                  .withStartupTimeout(120_000)
                  .build());
      server.start();
      Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
      try {
        kubeconfig = Files.createTempFile("isolato-it-", ".kubeconfig");
        // the server ends with this JVM, and so does its kubeconfig
        kubeconfig.toFile().deleteOnExit();
        Files.writeString(kubeconfig, server.getKubeConfigYaml());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return kubeconfig;
  }

  /** An admin client of the shared server. */
  public static KubernetesClient client() {
    return new KubernetesClientBuilder().withConfig(config()).build();
  }

  /** A new admin client configuration of the shared server. */
  public static Config config() {
    Path kc = kubeconfig();
    try {
      return Config.fromKubeconfig(null, Files.readString(kc), kc.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A namespace with the "default" ServiceAccount the absent controller manager would have made.
   */
  public static void namespace(KubernetesClient kube, String name) {
    kube.resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .serverSideApply();
    kube.resource(
            new ServiceAccountBuilder()
                .withNewMetadata()
                .withName("default")
                .withNamespace(name)
                .endMetadata()
                .build())
        .serverSideApply();
  }

  /**
   * One saas-bench container with {@code labels}: the pod of the workloads the tests create while
   * they play the controllers (no kubelet runs, so the image is never pulled).
   */
  public static PodTemplateSpec podTemplate(Map<String, String> labels) {
    return new PodTemplateSpecBuilder()
        .withNewMetadata()
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("app")
        .withImage("isolato/saas-bench:dev")
        .endContainer()
        .endSpec()
        .build();
  }

  /** The kubectl the server's tests use (localkube's build of this version when there is one). */
  public static Path kubectl() {
    Path built = k8sBin().resolve("kubectl");
    return Files.exists(built) ? built : Path.of(env("ISOLATO_KUBECTL", "/usr/bin/kubectl"));
  }

  private static Path k8sBin() {
    return Path.of(
        env(
            "ISOLATO_K8S_BIN",
            System.getProperty("user.home")
                + "/.cache/isolato/localkube/k8s-v"
                + VERSION
                + "/bin"));
  }

  static void linkBinaries(Path dir) {
    Map<String, Path> sources =
        Map.of(
            "kube-apiserver", k8sBin().resolve("kube-apiserver"),
            "etcd", Path.of(env("ISOLATO_ETCD", "/usr/bin/etcd")),
            "kubectl", kubectl());
    Path target = dir.resolve("k8s").resolve(VERSION + "-linux-amd64");
    try {
      Files.createDirectories(target);
      for (var e : sources.entrySet()) {
        if (!Files.isExecutable(e.getValue())) {
          throw new IllegalStateException(
              e.getKey()
                  + " not found at "
                  + e.getValue()
                  + " (build it with `make localkube-build`, or set ISOLATO_K8S_BIN / ISOLATO_ETCD / ISOLATO_KUBECTL)");
        }
        Path link = target.resolve(e.getKey());
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, e.getValue().toAbsolutePath());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String env(String name, String fallback) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? fallback : v;
  }
}
