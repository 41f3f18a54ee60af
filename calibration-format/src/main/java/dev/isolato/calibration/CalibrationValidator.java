package dev.isolato.calibration;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a {@link CalibrationRun} against docs/calibration-format.md and returns every problem as a
 * {@link FieldError} named by JSON path (empty list: valid).
 */
public final class CalibrationValidator {
  private static final Pattern POSITIVE_QUANTITY =
      Pattern.compile(CalibrationContext.POSITIVE_QUANTITY);

  private CalibrationValidator() {}

  public static List<FieldError> validate(CalibrationRun run) {
    List<FieldError> errors = new ArrayList<>();
    if (run == null) {
      errors.add(new FieldError("$", "required"));
      return errors;
    }
    if (run.schemaVersion() != CalibrationRun.SCHEMA_VERSION) {
      errors.add(
          new FieldError(
              "schemaVersion",
              "must be " + CalibrationRun.SCHEMA_VERSION + ", was " + run.schemaVersion()));
    }
    requireText(errors, "runId", run.runId());
    requireText(errors, "sloClass", run.sloClass());
    validateContext(errors, run.context());
    validateSteps(errors, run.steps());
    return errors;
  }

  private static void validateContext(List<FieldError> errors, CalibrationContext context) {
    if (context == null) {
      errors.add(new FieldError("context", "required"));
      return;
    }
    requireText(errors, "context.label", context.label());
    if (context.podCpu() != null && !POSITIVE_QUANTITY.matcher(context.podCpu()).matches()) {
      errors.add(
          new FieldError(
              "context.podCpu",
              "must be a positive CPU quantity such as 250m or 1 "
                  + "(the pods' CPU during the run), was '"
                  + context.podCpu()
                  + "'"));
    }
    if (context.replicas() < 1) {
      errors.add(new FieldError("context.replicas", "must be >= 1, was " + context.replicas()));
    }
    for (int i = 0; i < context.colocated().size(); i++) {
      requireText(errors, "context.colocated[" + i + "]", context.colocated().get(i));
    }
    context
        .tenantMix()
        .forEach(
            (cls, n) -> {
              if (n == null || n < 0) {
                errors.add(new FieldError("context.tenantMix." + cls, "must be >= 0, was " + n));
              }
            });
  }

  private static void validateSteps(List<FieldError> errors, List<CalibrationStep> steps) {
    if (steps == null || steps.isEmpty()) {
      errors.add(new FieldError("steps", "must contain at least one step"));
      return;
    }
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < steps.size(); i++) {
      String path = "steps[" + i + "]";
      CalibrationStep step = steps.get(i);
      if (step == null) {
        errors.add(new FieldError(path, "required"));
        continue;
      }
      if (step.index() < 0) {
        errors.add(new FieldError(path + ".index", "must be >= 0, was " + step.index()));
      } else if (!seen.add(step.index())) {
        errors.add(new FieldError(path + ".index", "duplicate index " + step.index()));
      }
      requirePositive(errors, path + ".offeredRps", step.offeredRps());
      requireNonNegative(errors, path + ".achievedRps", step.achievedRps());
      requirePositive(errors, path + ".durationSeconds", step.durationSeconds());
      if (step.total() == null) {
        errors.add(new FieldError(path + ".total", "required"));
      } else {
        validateSummary(errors, path + ".total", step.total(), true);
      }
      for (Map.Entry<String, LatencySummary> tenant : step.tenants().entrySet()) {
        String tenantPath = path + ".tenants." + tenant.getKey();
        if (tenant.getKey().isBlank()) {
          errors.add(new FieldError(path + ".tenants", "tenant id must not be blank"));
        } else if (tenant.getValue() == null) {
          errors.add(new FieldError(tenantPath, "required"));
        } else {
          validateSummary(errors, tenantPath, tenant.getValue(), false);
        }
      }
    }
  }

  private static void validateSummary(
      List<FieldError> errors, String path, LatencySummary s, boolean needsRequests) {
    if (needsRequests ? s.count() < 1 : s.count() < 0) {
      errors.add(
          new FieldError(
              path + ".count",
              "must be " + (needsRequests ? ">= 1" : ">= 0") + ", was " + s.count()));
    }
    if (s.errors() < 0 || s.errors() > s.count()) {
      errors.add(
          new FieldError(
              path + ".errors",
              "must be between 0 and count (" + s.count() + "), was " + s.errors()));
    }
    String[] names = {"p50", "p90", "p95", "p99", "max"};
    double[] values = {s.p50(), s.p90(), s.p95(), s.p99(), s.max()};
    for (int k = 0; k < values.length; k++) {
      if (!(values[k] >= 0) || Double.isInfinite(values[k])) {
        errors.add(
            new FieldError(
                path + "." + names[k], "must be a finite number >= 0, was " + values[k]));
      } else if (k > 0 && values[k] < values[k - 1]) {
        errors.add(
            new FieldError(
                path + "." + names[k],
                "must be >= " + names[k - 1] + " (" + values[k - 1] + "), was " + values[k]));
      }
    }
    if (s.p95Low() != null && !(s.p95Low() >= 0 && s.p95Low() <= s.p95())) {
      errors.add(
          new FieldError(
              path + ".p95Low", "must be between 0 and p95 (" + s.p95() + "), was " + s.p95Low()));
    }
    if (s.p95High() != null && !(s.p95High() >= s.p95() && s.p95High() <= s.max())) {
      errors.add(
          new FieldError(
              path + ".p95High",
              "must be between p95 ("
                  + s.p95()
                  + ") and max ("
                  + s.max()
                  + "), was "
                  + s.p95High()));
    }
  }

  /** Shared field checks (the engine's other validators use them too). */
  public static void requireText(List<FieldError> errors, String field, String value) {
    if (value == null || value.isBlank()) {
      errors.add(new FieldError(field, "required"));
    }
  }

  public static void requirePositive(List<FieldError> errors, String field, double value) {
    if (!(value > 0) || Double.isInfinite(value)) {
      errors.add(new FieldError(field, "must be > 0, was " + value));
    }
  }

  public static void requireNonNegative(List<FieldError> errors, String field, double value) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      errors.add(new FieldError(field, "must be >= 0, was " + value));
    }
  }
}
