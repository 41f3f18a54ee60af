package dev.isolato.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** `make tune`'s arguments, in a JVM of their own (TuneMain exits). No cluster is reached. */
class TuneMainTest {

  record Exit(int code, String output) {}

  private static Exit tune(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(TuneMain.class.getName());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Exit(
        p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  @Test
  void aMisspeltOptionIsRefusedInsteadOfLeftAtItsDefault() throws Exception {
    Exit e = tune("--localkube", "/nonexistent/localkube", "--paht", "tenants");
    assertThat(e.code()).isEqualTo(2);
    assertThat(e.output()).contains("unexpected argument '--paht'").contains("usage: TuneMain");
  }

  @Test
  void anOptionWithoutItsValueAndTooFewRepeatsAreRefused() throws Exception {
    Exit missing = tune("--localkube", "/nonexistent/localkube", "--repeats");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.output()).contains("--repeats needs a value");
    Exit zero = tune("--localkube", "/nonexistent/localkube", "--repeats", "0");
    assertThat(zero.code()).isEqualTo(2);
    assertThat(zero.output()).contains("--repeats must be at least 1, was 0");
  }

  @Test
  void aStartingSettingLocalkubeDoesNotSetIsRefusedBeforeAnythingRuns() throws Exception {
    Exit e = tune("--localkube", "/nonexistent/localkube", "--start", "isolato.client-qps=5");
    assertThat(e.code()).isEqualTo(2);
    assertThat(e.output())
        .contains("'isolato.client-qps=5' is not KEY=VALUE with KEY a throughput limit")
        .contains("usage: TuneMain");
  }
}
