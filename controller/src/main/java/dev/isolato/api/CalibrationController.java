package dev.isolato.api;

import dev.isolato.calibration.CalibrationRun;
import dev.isolato.calibration.CalibrationValidator;
import dev.isolato.calibration.FieldError;
import dev.isolato.config.KubernetesConfig;
import dev.isolato.incontext.CalibrationRecorder;
import dev.isolato.slo.CalibrationOutcome;
import dev.isolato.slo.ClassTarget;
import dev.isolato.slo.ModelFit;
import dev.isolato.slo.SloEngine;
import dev.isolato.tenancy.CalibrationStatusMapper;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Calibration runs (docs/calibration-format.md) in, cut-offs and a fitted model out, stored in the
 * SloClass status; the class reconciler plans again when a calibration lands.
 */
@RestController
@Tag(name = "calibrations", description = "Calibration runs in, cut-offs and a fitted model out")
@SecurityRequirement(name = "bearer")
public class CalibrationController {
  /** Optimistic-concurrency attempts when two calibrations of a class race. */
  static final int ATTEMPTS = 3;

  private final KubernetesClient client;
  private final SloClasses classes;
  private final SloEngine engine;

  public CalibrationController(
      @Qualifier(KubernetesConfig.API_CLIENT) KubernetesClient client,
      SloClasses classes,
      SloEngine engine) {
    this.client = client;
    this.classes = classes;
    this.engine = engine;
  }

  @Operation(
      operationId = "createCalibration",
      summary =
          "Store a calibration run: cut-off (with evidence) and a model fitted over the class's runs "
              + "of the same context at every replica count; the class is planned again with them",
      description =
          "400 lists every invalid field by JSON path (steps[3].offeredRps); 422 when sloClass does not "
              + "exist or its target cannot be calibrated (percentile other than 50/90/95/99).")
  @ApiResponse(
      responseCode = "201",
      description = "stored; Location: /api/v1/slo-classes/{class}/calibration",
      content =
          @Content(
              mediaType = "application/json",
              schema = @Schema(implementation = CalibrationResponse.class)))
  @ApiResponse(
      responseCode = "400",
      description = "invalid run: errors[] name each field by JSON path",
      content = @Content(mediaType = "application/problem+json"))
  @ApiResponse(
      responseCode = "422",
      description = "unknown sloClass, or its target cannot be calibrated",
      content = @Content(mediaType = "application/problem+json"))
  @ApiResponse(
      responseCode = "409",
      description = "the class changed during three attempts to store the run; retry")
  @PostMapping(path = "/api/v1/calibrations", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<CalibrationResponse> ingest(@RequestBody CalibrationRun run) {
    List<FieldError> errors = new ArrayList<>(CalibrationValidator.validate(run));
    if (errors.isEmpty()) {
      try { // the format's pattern admits sizes no pod has; the status stores millicores
        CalibrationStatusMapper.podCpuMillis(run);
      } catch (IllegalArgumentException e) {
        errors.add(new FieldError("context.podCpu", e.getMessage()));
      }
    }
    if (run != null
        && run.steps() != null
        && run.steps().size() > CalibrationStatusMapper.MAX_STEPS) {
      errors.add(
          new FieldError(
              "steps",
              "must have at most "
                  + CalibrationStatusMapper.MAX_STEPS
                  + " steps, had "
                  + run.steps().size()));
    }
    if (!errors.isEmpty()) {
      throw ApiException.invalid(errors);
    }
    for (int attempt = 1; ; attempt++) {
      SloClass cls = classes.referenced(run.sloClass(), "sloClass");
      try {
        return store(cls, run);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  private ResponseEntity<CalibrationResponse> store(SloClass cls, CalibrationRun run) {
    ClassTarget target = CalibrationStatusMapper.target(cls);
    List<FieldError> targetErrors = target.validate("spec.latency.");
    if (!targetErrors.isEmpty()) {
      throw EngineErrors.classUnusable(cls.getMetadata().getName(), "calibrated", targetErrors);
    }
    CalibrationRecorder.Recorded stored =
        CalibrationRecorder.record(
            client, engine, cls, target, run, Instant.now().truncatedTo(ChronoUnit.MILLIS));
    CalibrationOutcome outcome = stored.outcome();
    ModelFit fit = stored.fit();
    List<CalibrationStatusMapper.StoredRunRef> fitRuns = stored.fitRuns();
    SloClassStatus next = stored.next();
    List<String> warnings = new ArrayList<>(outcome.warnings());
    if (!fit.trusted()) {
      warnings.add(
          "the class fit was refused ("
              + String.join("; ", fit.reasons())
              + "): plans use the linear baseline");
    } else if (!fit.sigmaFitted()) {
      warnings.add(
          "one replica count in context '"
              + run.context().label()
              + "': scaling across replicas is not measured (σ assumed); post a run at another replica count");
    }
    CalibrationResponse body =
        new CalibrationResponse(
            run.runId(),
            run.sloClass(),
            run.context().label(),
            run.context().replicas(),
            outcome.cutoff(),
            outcome.perPodCutoffRps(),
            fit,
            outcome.fit(),
            fitRuns.stream()
                .map(r -> new CalibrationResponse.FitRun(r.runId(), r.replicas()))
                .toList(),
            next.perPodCutoffRps,
            warnings);
    return ResponseEntity.created(
            URI.create("/api/v1/slo-classes/" + run.sloClass() + "/calibration"))
        .body(body);
  }

  @Operation(
      operationId = "getSloClassCalibration",
      summary = "What calibration stored for a class: cut-offs, model, fit, stored runs")
  @ApiResponse(responseCode = "200", description = "the calibration state")
  @ApiResponse(responseCode = "404", description = "no such class")
  @GetMapping(
      path = "/api/v1/slo-classes/{name}/calibration",
      produces = MediaType.APPLICATION_JSON_VALUE)
  public CalibrationView get(@PathVariable String name) {
    return CalibrationView.of(classes.find(name));
  }

  @Operation(
      operationId = "getCalibration",
      summary = "Same as GET /api/v1/slo-classes/{sloClass}/calibration")
  @ApiResponse(responseCode = "200", description = "the calibration state")
  @ApiResponse(responseCode = "404", description = "no such class")
  @GetMapping(path = "/api/v1/calibrations", produces = MediaType.APPLICATION_JSON_VALUE)
  public CalibrationView byClass(
      @Parameter(description = "class name") @RequestParam(required = false) String sloClass) {
    if (sloClass == null || sloClass.isBlank()) {
      throw ApiException.invalid(
          List.of(new FieldError("sloClass", "is required (query parameter)")));
    }
    return CalibrationView.of(classes.find(sloClass));
  }
}
