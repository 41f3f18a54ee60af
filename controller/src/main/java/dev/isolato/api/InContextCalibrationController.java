package dev.isolato.api;

import dev.isolato.incontext.InContextCalibrations;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassStatus;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * In-context calibrations (issue 34 item 1): a temporary replica of the class on a real node, out
 * of the tenants' Service, ramped by an in-cluster open-loop generator; the cut-off found is stored
 * like a posted run, under the context it was measured in.
 */
@RestController
@Tag(name = "calibrations", description = "Calibration runs in, cut-offs and a fitted model out")
@SecurityRequirement(name = "bearer")
public class InContextCalibrationController {
  private final SloClasses classes;
  private final InContextCalibrations calibrations;

  public InContextCalibrationController(SloClasses classes, InContextCalibrations calibrations) {
    this.classes = classes;
    this.calibrations = calibrations;
  }

  @Operation(
      operationId = "startInContextCalibration",
      summary =
          "Calibrate the class where it runs: a temporary extra replica (same template and size, real"
              + " neighbours, not in the tenants' Service) ramped by an in-cluster open-loop generator",
      description =
          "202 with the calibration (phase Pending); poll its Location. 409 while another calibration of"
              + " the class runs, or when its pool has no ready pod or no tenant to replay.")
  @ApiResponse(
      responseCode = "202",
      description = "started; Location: /api/v1/slo-classes/{name}/calibrations/{id}",
      content =
          @Content(
              mediaType = "application/json",
              schema = @Schema(implementation = SloClassStatus.InContext.class)))
  @ApiResponse(
      responseCode = "404",
      description = "no such class",
      content = @Content(mediaType = "application/problem+json"))
  @ApiResponse(
      responseCode = "409",
      description = "a calibration of the class runs, or its pool cannot be calibrated now",
      content = @Content(mediaType = "application/problem+json"))
  @ApiResponse(
      responseCode = "422",
      description =
          "the class cannot be calibrated in context as specified: a workload class without"
              + " spec.requestMix, or a tenantKey the generator cannot send",
      content = @Content(mediaType = "application/problem+json"))
  @PostMapping(
      path = "/api/v1/slo-classes/{name}/calibrations",
      produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<SloClassStatus.InContext> start(@PathVariable String name) {
    SloClass cls = classes.find(name);
    try {
      SloClassStatus.InContext s =
          calibrations.begin(cls, "api", Instant.now().truncatedTo(ChronoUnit.MILLIS));
      return ResponseEntity.accepted()
          .location(URI.create("/api/v1/slo-classes/" + name + "/calibrations/" + s.id))
          .body(s);
    } catch (InContextCalibrations.Refused e) {
      throw switch (e.why) {
        case RUNNING ->
            new ApiException(HttpStatus.CONFLICT, "Calibration running", e.getMessage());
        case NOT_NOW ->
            new ApiException(HttpStatus.CONFLICT, "Class cannot be calibrated now", e.getMessage());
        case SPEC ->
            new ApiException(
                HttpStatus.UNPROCESSABLE_ENTITY,
                "Class cannot be calibrated in context",
                e.getMessage());
      };
    }
  }

  @Operation(
      operationId = "getInContextCalibration",
      summary = "An in-context calibration: phase, steps, context measured, cut-off found")
  @ApiResponse(
      responseCode = "200",
      description = "the calibration",
      content =
          @Content(
              mediaType = "application/json",
              schema = @Schema(implementation = SloClassStatus.InContext.class)))
  @ApiResponse(
      responseCode = "404",
      description = "no such class, or not its latest calibration",
      content = @Content(mediaType = "application/problem+json"))
  @GetMapping(
      path = "/api/v1/slo-classes/{name}/calibrations/{id}",
      produces = MediaType.APPLICATION_JSON_VALUE)
  public SloClassStatus.InContext get(@PathVariable String name, @PathVariable String id) {
    SloClass cls = classes.find(name);
    SloClassStatus.InContext s = cls.getStatus() == null ? null : cls.getStatus().inContext;
    if (s == null || !id.equals(s.id)) {
      throw ApiException.notFound("calibration", name + "/" + id);
    }
    return s;
  }
}
