package dev.isolato.tuner;

import dev.isolato.pipeline.Parameter;
import dev.isolato.pipeline.ParameterCatalog;
import dev.isolato.pipeline.Stage;
import dev.isolato.pipeline.run.ClusterSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * localkube's configuration through its own command: {@code localkube config} to read, {@code
 * localkube config set KEY VALUE} then {@code localkube up}, which restarts only the component
 * whose settings changed (localkube/README.md "Configuration").
 */
public final class LocalkubeSettings implements ClusterSettings {

  private static final Pattern LINE =
      Pattern.compile("^([\\w.-]+) = (\\S*)(\\s+# set in localkube.conf)?$");
  private static final long TIMEOUT_S = 300;

  private final Path script;

  /** The user's overrides before the first apply: key → value, or empty when it was not set. */
  private final Map<String, Optional<String>> before = new LinkedHashMap<>();

  public LocalkubeSettings(Path script) {
    this.script = script;
  }

  @Override
  public Parameter.Cluster cluster() {
    return Parameter.Cluster.LOCALKUBE;
  }

  /** The effective value of every catalog parameter localkube has a key for. */
  @Override
  public Map<String, Double> current() {
    Map<String, Double> out = new HashMap<>();
    parse(run(List.of("config")))
        .forEach(
            (k, v) -> {
              if (ParameterCatalog.byId(k).isPresent()) {
                try {
                  out.put(k, Double.parseDouble(v.value()));
                } catch (NumberFormatException e) {
                  // booleans, durations: no throughput rule reads them
                }
              }
            });
    return out;
  }

  @Override
  public synchronized String apply(Parameter p, double value) {
    return start(Map.of(p, value));
  }

  /**
   * Sets every one of {@code values} (each remembered for {@link #restore}), then restarts the
   * components concerned with one {@code localkube up}; returns what was done.
   */
  public synchronized String start(Map<Parameter, Double> values) {
    Map<String, Setting> config = parse(run(List.of("config")));
    List<String> sets = new ArrayList<>();
    Set<Stage.Component> restarted = new TreeSet<>();
    values.forEach(
        (p, value) -> {
          String key = p.apply().how();
          Setting was = config.get(key);
          if (was == null) {
            throw new IllegalStateException(
                "localkube has no key " + key + " (localkube/config/defaults.conf)");
          }
          before.putIfAbsent(key, was.user() ? Optional.of(was.value()) : Optional.empty());
          run(List.of("config", "set", key, ClusterSettings.format(value)));
          sets.add("localkube config set " + key + " " + ClusterSettings.format(value));
          restarted.add(p.component());
        });
    run(List.of("up"));
    return String.join(" && ", sets)
        + " && localkube up (restarted "
        + restarted.stream().map(Enum::name).collect(Collectors.joining(", "))
        + ")";
  }

  @Override
  public synchronized void restore() {
    if (before.isEmpty()) {
      return;
    }
    before.forEach(
        (key, value) ->
            run(
                value
                    .map(v -> List.of("config", "set", key, v))
                    .orElse(List.of("config", "unset", key))));
    before.clear();
    run(List.of("up"));
  }

  record Setting(String value, boolean user) {}

  /** `localkube config` lines: {@code key = value} with a marker for overrides. */
  static Map<String, Setting> parse(String config) {
    Map<String, Setting> out = new LinkedHashMap<>();
    for (String line : config.split("\n", -1)) {
      Matcher m = LINE.matcher(line.strip());
      if (m.matches()) {
        out.put(m.group(1), new Setting(m.group(2), m.group(3) != null));
      }
    }
    return out;
  }

  private String run(List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(script.toString());
    cmd.addAll(args);
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      p.getOutputStream().close();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(
            String.join(" ", cmd) + " did not finish within " + TIMEOUT_S + " s");
      }
      String text = new String(out, StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        throw new IllegalStateException(
            String.join(" ", cmd) + " failed (exit " + p.exitValue() + "): " + tail(text));
      }
      return text;
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + script + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + String.join(" ", cmd), e);
    }
  }

  private static String tail(String text) {
    return text.length() <= 600 ? text.strip() : "…" + text.substring(text.length() - 600).strip();
  }
}
