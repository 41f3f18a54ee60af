package dev.isolato.api;

import dev.isolato.calibration.FieldError;
import dev.isolato.slo.PlanRequest;
import dev.isolato.slo.PlanRequestValidator;
import dev.isolato.slo.SloEngine;
import dev.isolato.tenancy.ClassPlans;
import dev.isolato.tenancy.Pool;
import dev.isolato.tenancy.SloClass;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Capacity plans from the SLO engine: a class's current plan, and what-if simulations. */
@RestController
@Tag(name = "plans", description = "Capacity plans and what-if simulations")
@SecurityRequirement(name = "bearer")
public class PlanController {
  private final SloClasses classes;
  private final SloEngine engine;

  public PlanController(SloClasses classes, SloEngine engine) {
    this.classes = classes;
    this.engine = engine;
  }

  @Operation(
      operationId = "getSloClassPlan",
      summary =
          "The class's current plan for its shared pool, with the explanation, the linear baseline "
              + "and the model's predicted latency (computed now from the spec, the tenants and the stored fit)")
  @ApiResponse(responseCode = "200", description = "the plan")
  @ApiResponse(responseCode = "404", description = "no such class")
  @ApiResponse(responseCode = "422", description = "the class's own values cannot be planned")
  @GetMapping(path = "/api/v1/slo-classes/{name}/plan", produces = MediaType.APPLICATION_JSON_VALUE)
  public PlanView plan(@PathVariable String name) {
    SloClass cls = classes.find(name);
    Pool pool = classes.sharedPool(name);
    PlanRequest request = ClassPlans.request(cls, ClassPlans.demands(cls, pool.tenants()));
    List<FieldError> errors = PlanRequestValidator.validate(request);
    if (!errors.isEmpty()) {
      throw EngineErrors.classUnusable(name, "planned", errors);
    }
    return PlanView.of(request, pool.namespace(), PlanView.source(cls), engine.simulate(request));
  }

  @Operation(
      operationId = "simulatePlan",
      summary =
          "What-if: replicas, admitted rates and predicted latency for a tenant set in a class, "
              + "beside the linear baseline",
      description =
          "Body {sloClass, tenants:[{tenantId, committedRps}], overrides:{percentile, targetMs, minReplicas, "
              + "maxReplicas, perPodCutoffRps, useModel}}. 400 names the offending field; 422 for an unknown class.")
  @ApiResponse(responseCode = "200", description = "the what-if plan; nothing is written")
  @ApiResponse(
      responseCode = "400",
      description = "errors[] name each field (tenants[1].committedRps, overrides.maxReplicas)",
      content = @Content(mediaType = "application/problem+json"))
  @ApiResponse(
      responseCode = "422",
      description = "unknown sloClass, or the class's own values cannot be planned",
      content = @Content(mediaType = "application/problem+json"))
  @PostMapping(path = "/api/v1/plans:simulate", produces = MediaType.APPLICATION_JSON_VALUE)
  public PlanView simulate(@RequestBody SimulateRequest body) {
    List<FieldError> errors = Simulations.requestErrors(body);
    if (!errors.isEmpty()) {
      throw ApiException.invalid(errors);
    }
    SloClass cls = classes.referenced(body.sloClass(), "sloClass");
    PlanRequest request = Simulations.apply(ClassPlans.request(cls, List.of()), body);
    Simulations.Split split = Simulations.split(PlanRequestValidator.validate(request), body);
    if (!split.request().isEmpty()) {
      throw ApiException.invalid(split.request());
    }
    if (!split.cls().isEmpty()) {
      throw EngineErrors.classUnusable(body.sloClass(), "planned", split.cls());
    }
    String source =
        body.overrides() != null && body.overrides().perPodCutoffRps() != null
            ? "override"
            : PlanView.source(cls);
    return PlanView.of(request, null, source, engine.simulate(request));
  }
}
