package dev.isolato;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The shipped jar (target/isolato-controller.jar, repackaged before the integration tests run)
 * holds no part of the localkube tuning rig: no class of the tuner's package, and no class of ours
 * that starts a process (the rig's {@code localkube config set}/{@code up} and its controller
 * restarts were the product's only {@code ProcessBuilder}s). The rig is the tuner module (tuner/).
 */
class ControllerJarIT {

  static final Path JAR = Path.of("target/isolato-controller.jar");
  static final String OURS = "BOOT-INF/classes/dev/isolato/";

  @Test
  void holdsNoClassOfTheTunerAndNoneThatStartsAProcess() throws IOException {
    assertThat(JAR).as("make controller-build's jar").exists();
    List<String> ours = new ArrayList<>();
    List<String> tuner = new ArrayList<>();
    List<String> processes = new ArrayList<>();
    try (ZipFile jar = new ZipFile(JAR.toFile())) {
      for (ZipEntry e : jar.stream().toList()) {
        String name = e.getName();
        if (!name.startsWith(OURS) || !name.endsWith(".class")) {
          continue;
        }
        ours.add(name);
        if (name.startsWith(OURS + "tuner/")) {
          tuner.add(name);
        }
        try (InputStream in = jar.getInputStream(e)) {
          // a class that names ProcessBuilder has it in its constant pool, in internal form
          if (new String(in.readAllBytes(), StandardCharsets.ISO_8859_1)
              .contains("java/lang/ProcessBuilder")) {
            processes.add(name);
          }
        }
      }
    }
    // the check reads the classes it means to: the analyses' loop is there, the mains are not
    assertThat(ours)
        .contains(OURS + "pipeline/run/TuningLoop.class", OURS + "api/PipelineController.class")
        .doesNotContain(
            OURS + "pipeline/run/TuneMain.class", OURS + "pipeline/run/LocalkubeSettings.class");
    assertThat(tuner).as("the tuner's classes").isEmpty();
    assertThat(processes).as("classes that start a process").isEmpty();
  }
}
