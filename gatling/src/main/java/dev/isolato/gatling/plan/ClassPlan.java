package dev.isolato.gatling.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The load planned for one SLO class, reached at {@code baseUrl}, and the context recorded with its
 * calibration run (label, pod size, co-located classes, tenant mix; see
 * docs/calibration-format.md).
 */
public record ClassPlan(
    String sloClass, String baseUrl, Map<String, Object> context, List<ClassStep> steps) {
  public ClassPlan {
    if (sloClass == null || sloClass.isBlank()) {
      throw new IllegalArgumentException("sloClass must not be blank");
    }
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("class " + sloClass + " has no steps");
    }
    context = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(context));
    steps = List.copyOf(steps);
  }

  /**
   * Unrecorded warm-up requests before step 0: the first step's rate for {@code seconds}, rounded,
   * at least 1 (0 without a warm-up).
   */
  public long warmupRequests(double seconds) {
    return seconds > 0 ? Math.max(1, Math.round(steps.get(0).offeredRps() * seconds)) : 0;
  }

  /** When the last step's injection ends, in seconds after the run starts. */
  public double endSeconds() {
    return steps.stream().mapToDouble(ClassStep::endSeconds).max().orElse(0);
  }
}
