package dev.isolato.api;

import dev.isolato.calibration.FieldError;
import dev.isolato.pipeline.WorkloadShape;
import dev.isolato.pipeline.run.Analysis;
import dev.isolato.pipeline.run.PipelineAnalyses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Deploy-pipeline analyses (docs/pipeline.md): benchmark a workload shape on the cluster, break the
 * deployment time down by stage against the model's best case, name the bottleneck and the setting
 * that limits it, and optionally apply it and measure again. Provider admins only.
 */
@RestController
@Tag(name = "pipeline", description = "Deploy-pipeline analyses")
@SecurityRequirement(name = "bearer")
public class PipelineController {
  static final String PATH = "/api/v1/pipeline/analyses";
  private final PipelineAnalyses analyses;

  public PipelineController(PipelineAnalyses analyses) {
    this.analyses = analyses;
  }

  @Operation(
      operationId = "startPipelineAnalysis",
      summary = "Start an analysis of a workload shape (runs in the background; one at a time)",
      description =
          "Creates J Deployments of P pause pods in a namespace of its own (isolato-pipeline-<id>-<n>), "
              + "traces each stage until every pod is Ready, predicts the best case (Columbo eq. 7), names the "
              + "bottleneck stage and the setting limiting it. With maxChanges > 0 the loop applies that setting "
              + "(on localkube: its configuration; on a shared cluster only Isolato's own settings) and measures "
              + "again. repeats > 1 measures each iteration as the median of that many runs (every run's "
              + "seconds in repeatSeconds). Poll the Location until status is DONE or FAILED.")
  @ApiResponse(
      responseCode = "202",
      description = "started; the body is its first state, Location its address")
  @ApiResponse(
      responseCode = "400",
      description = "errors[] name each field (workloads × podsPerWorkload ≤ 200)",
      content = @Content(mediaType = "application/problem+json"))
  @ApiResponse(
      responseCode = "409",
      description = "an analysis is running (property `running` names it)",
      content = @Content(mediaType = "application/problem+json"))
  @PostMapping(path = PATH, produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Analysis> start(@RequestBody AnalysisRequest body) {
    List<FieldError> errors = AnalysisRequest.errors(body);
    if (!errors.isEmpty()) {
      throw ApiException.invalid(errors);
    }
    WorkloadShape shape =
        new WorkloadShape(
            body.workloads(),
            body.podsPerWorkload(),
            body.containersPerPod() == null ? 1 : body.containersPerPod());
    Analysis a =
        analyses
            .start(
                shape,
                body.maxChanges() == null ? 0 : body.maxChanges(),
                body.repeats() == null ? 1 : body.repeats())
            .orElseThrow(
                () -> {
                  String id = analyses.running().orElse("?");
                  return new ApiException(
                      HttpStatus.CONFLICT,
                      "Analysis running",
                      "analysis "
                          + id
                          + " is running and a second would measure the first's load; GET "
                          + PATH
                          + "/"
                          + id
                          + " and retry when its status is DONE or FAILED",
                      Map.of("running", id));
                });
    return ResponseEntity.accepted().location(URI.create(PATH + "/" + a.id())).body(a);
  }

  @Operation(
      operationId = "listPipelineAnalyses",
      summary = "Past and running analyses, newest first (the last isolato.pipeline.history)")
  @ApiResponse(responseCode = "200", description = "the analyses")
  @GetMapping(path = PATH, produces = MediaType.APPLICATION_JSON_VALUE)
  public List<Analysis> list() {
    return analyses.all();
  }

  @Operation(
      operationId = "getPipelineAnalysis",
      summary = "One analysis: every iteration's stage breakdown, bottleneck and recommendation")
  @ApiResponse(responseCode = "200", description = "the analysis")
  @ApiResponse(
      responseCode = "404",
      description = "no such analysis (or dropped from the history)",
      content = @Content(mediaType = "application/problem+json"))
  @GetMapping(path = PATH + "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
  public Analysis get(@PathVariable String id) {
    return analyses.find(id).orElseThrow(() -> ApiException.notFound("analysis", id));
  }
}
