package dev.isolato;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline;
import org.springframework.core.metrics.StartupStep;

/**
 * The start's profile when the JVM runs with {@code -Disolato.startup-steps=FILE}: Spring's startup
 * steps (bean creations, the context's phases, and Isolato's own cluster steps in
 * OperatorLifecycle) buffered, and written to FILE as JSON once the application is ready, with the
 * JVM's start and the ready time, so that the time before Spring and after its refresh show too.
 * Read by {@code isolato-bench start-ab} (bench/isolato_bench/start_ab.py). Off by default: nothing
 * is buffered.
 */
final class StartupSteps {
  static final String PROPERTY = "isolato.startup-steps";
  private static final int CAPACITY = 20_000;

  private final BufferingApplicationStartup startup = new BufferingApplicationStartup(CAPACITY);
  private final Path file;

  private StartupSteps(Path file) {
    this.file = file;
  }

  /** The recorder asked for by the system property, or null. */
  static StartupSteps fromSystemProperty() {
    String file = System.getProperty(PROPERTY);
    return file == null || file.isBlank() ? null : new StartupSteps(Path.of(file));
  }

  BufferingApplicationStartup startup() {
    return startup;
  }

  /** Writes the steps buffered so far; called when the application is ready. */
  void write() {
    StartupTimeline timeline = startup.getBufferedTimeline();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("jvmStartMs", ManagementFactory.getRuntimeMXBean().getStartTime());
    out.put("springStartMs", timeline.getStartTime().toEpochMilli());
    out.put("readyMs", Instant.now().toEpochMilli());
    List<Map<String, Object>> steps = new ArrayList<>();
    for (StartupTimeline.TimelineEvent e : timeline.getEvents()) {
      StartupStep s = e.getStartupStep();
      Map<String, Object> step = new LinkedHashMap<>();
      step.put("id", s.getId());
      step.put("parentId", s.getParentId());
      step.put("name", s.getName());
      Map<String, String> tags = new LinkedHashMap<>();
      s.getTags().forEach(t -> tags.put(t.getKey(), t.getValue()));
      step.put("tags", tags);
      step.put("startMs", e.getStartTime().toEpochMilli());
      step.put("durationMs", e.getDuration().toNanos() / 1e6);
      steps.add(step);
    }
    out.put("steps", steps);
    try {
      new ObjectMapper().writeValue(file.toFile(), out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
