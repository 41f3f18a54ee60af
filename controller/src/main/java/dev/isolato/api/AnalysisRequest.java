package dev.isolato.api;

import dev.isolato.calibration.FieldError;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import java.util.ArrayList;
import java.util.List;

/**
 * A workload shape to benchmark, {@code POST /api/v1/pipeline/analyses}: J Deployments of P pods of
 * C containers each, how many settings the tuning loop may change (0 = measure and recommend only)
 * and how many runs each iteration measures (their median; 1 by default). Bounded so that one
 * analysis fits a node and a few minutes.
 */
public record AnalysisRequest(
    @Required @Min(1) @Max(MAX_WORKLOADS) Integer workloads,
    @Required @Min(1) @Max(MAX_PODS) Integer podsPerWorkload,
    @Min(1) @Max(MAX_CONTAINERS) Integer containersPerPod,
    @Min(0) @Max(MAX_CHANGES) Integer maxChanges,
    @Min(1) @Max(MAX_REPEATS) Integer repeats) {

  static final int MAX_WORKLOADS = 50;

  /** Pods of one analysis in all (J·P): what one 2-core node runs within the run timeout. */
  static final int MAX_PODS = 200;

  static final int MAX_CONTAINERS = 4;
  static final int MAX_CHANGES = 5;
  static final int MAX_REPEATS = 5;

  /** Every problem at once; J·P ≤ 200 is the rule across fields the schema cannot state. */
  static List<FieldError> errors(AnalysisRequest r) {
    List<FieldError> e = new ArrayList<>();
    range(e, "workloads", r.workloads(), 1, MAX_WORKLOADS, true);
    range(e, "podsPerWorkload", r.podsPerWorkload(), 1, MAX_PODS, true);
    range(e, "containersPerPod", r.containersPerPod(), 1, MAX_CONTAINERS, false);
    range(e, "maxChanges", r.maxChanges(), 0, MAX_CHANGES, false);
    range(e, "repeats", r.repeats(), 1, MAX_REPEATS, false);
    if (e.isEmpty() && (long) r.workloads() * r.podsPerWorkload() > MAX_PODS) {
      e.add(
          new FieldError(
              "podsPerWorkload",
              "workloads × podsPerWorkload must be at most "
                  + MAX_PODS
                  + ", was "
                  + r.workloads()
                  + " × "
                  + r.podsPerWorkload()
                  + " = "
                  + (long) r.workloads() * r.podsPerWorkload()
                  + "; lower either"));
    }
    return e;
  }

  private static void range(
      List<FieldError> e, String field, Integer v, int min, int max, boolean required) {
    if (v == null) {
      if (required) {
        e.add(new FieldError(field, "is required (an integer " + min + "–" + max + ")"));
      }
    } else if (v < min || v > max) {
      e.add(new FieldError(field, "must be between " + min + " and " + max + ", was " + v));
    }
  }
}
