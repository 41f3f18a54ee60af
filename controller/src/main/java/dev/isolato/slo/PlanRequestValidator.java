package dev.isolato.slo;

import dev.isolato.calibration.CalibrationValidator;
import dev.isolato.calibration.FieldError;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Field errors of a {@link PlanRequest} (empty: valid), named by JSON path. */
public final class PlanRequestValidator {
  private PlanRequestValidator() {}

  public static List<FieldError> validate(PlanRequest request) {
    List<FieldError> errors =
        new ArrayList<>(
            new ClassTarget(request.sloClass(), request.percentile(), request.targetLatencyMs())
                .validate(""));
    if (request.minReplicas() < 0) {
      errors.add(new FieldError("minReplicas", "must be >= 0, was " + request.minReplicas()));
    }
    if (request.maxReplicas() < Math.max(1, request.minReplicas())) {
      errors.add(
          new FieldError(
              "maxReplicas", "must be >= max(1, minReplicas), was " + request.maxReplicas()));
    }
    CalibrationValidator.requireNonNegative(errors, "perPodCutoffRps", request.perPodCutoffRps());
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < request.tenants().size(); i++) {
      TenantDemand t = request.tenants().get(i);
      String path = "tenants[" + i + "]";
      CalibrationValidator.requireText(errors, path + ".tenantId", t.tenantId());
      if (t.tenantId() != null && !ids.add(t.tenantId())) {
        errors.add(new FieldError(path + ".tenantId", "duplicate tenant " + t.tenantId()));
      }
      CalibrationValidator.requireNonNegative(errors, path + ".committedRps", t.committedRps());
    }
    return errors;
  }
}
