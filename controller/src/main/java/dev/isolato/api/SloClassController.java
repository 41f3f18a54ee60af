package dev.isolato.api;

import dev.isolato.calibration.FieldError;
import dev.isolato.config.KubernetesConfig;
import dev.isolato.tenancy.PoolNames;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.WorkloadRules;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** SLO classes: SloClass custom resources (cluster-scoped). */
@RestController
@Tag(name = "slo-classes", description = "SLO classes: targets, pod resources, replica bounds")
@RequestMapping("/api/v1/slo-classes")
@SecurityRequirement(name = "bearer")
public class SloClassController {
  /** Tries of an update without If-Match that meets concurrent writes. */
  private static final int UNVERSIONED_UPDATE_ATTEMPTS = 3;

  private final KubernetesClient client;
  private final SloClasses classes;

  public SloClassController(
      @Qualifier(KubernetesConfig.API_CLIENT) KubernetesClient client, SloClasses classes) {
    this.client = client;
    this.classes = classes;
  }

  private static final String WORKLOAD_REFUSED =
      "spec.workload cannot run: more than one container or port, the gate's port 8080, or"
          + " something the restricted Pod Security profile forbids; errors lists each field";

  @Operation(operationId = "createSloClass", summary = "Create an SLO class")
  @ApiResponse(
      responseCode = "201",
      description = "created; Location and ETag name the class",
      content =
          @Content(
              mediaType = "application/json",
              schema = @Schema(implementation = SloClassBody.class)))
  @ApiResponse(responseCode = "409", description = "a class of this name exists")
  @ApiResponse(responseCode = "422", description = WORKLOAD_REFUSED)
  @PostMapping(produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<SloClassBody> create(@RequestBody SloClassBody body) {
    validate(body.name(), body);
    classes.requireAllowedImage(body.spec());
    classes.requireFreeNamespace(PoolNames.sharedNamespace(body.name()), "name");
    SloClass c = new SloClass();
    c.setMetadata(new ObjectMetaBuilder().withName(body.name()).build());
    c.setSpec(body.spec());
    SloClass created;
    try {
      created = client.resources(SloClass.class).resource(c).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        throw new ApiException(
            HttpStatus.CONFLICT,
            "SLO class exists",
            "SLO class '" + body.name() + "' already exists",
            Map.of("field", "name"));
      }
      throw e;
    }
    return ResponseEntity.created(URI.create("/api/v1/slo-classes/" + body.name()))
        .eTag(Etags.of(created.getMetadata().getResourceVersion()))
        .body(SloClassBody.of(created));
  }

  @Operation(
      operationId = "getSloClass",
      summary = "Get an SLO class with its measured capacity and current plan")
  @ApiResponse(responseCode = "200", description = "the class; ETag: its version")
  @ApiResponse(responseCode = "404", description = "no such class")
  @GetMapping(path = "/{name}", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<SloClassBody> get(@PathVariable String name) {
    SloClass c = classes.find(name);
    return ResponseEntity.ok()
        .eTag(Etags.of(c.getMetadata().getResourceVersion()))
        .body(SloClassBody.of(c));
  }

  @ApiResponse(responseCode = "200", description = "one page; continueToken fetches the next")
  @ApiResponse(
      responseCode = "422",
      description = "continue is not a token of this list, or has expired")
  @Operation(
      operationId = "listSloClasses",
      summary = "List SLO classes, a page at a time (limit, continue)")
  @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
  public SloClassBody.Page list(
      @RequestParam(defaultValue = "100") int limit,
      @RequestParam(name = "continue", required = false) String continueToken) {
    var page = Pages.fetch(limit, continueToken, o -> client.resources(SloClass.class).list(o));
    return new SloClassBody.Page(
        page.getItems().stream().map(SloClassBody::of).toList(), Pages.next(page));
  }

  @Operation(
      operationId = "updateSloClass",
      summary = "Replace an SLO class's spec (If-Match: its ETag)")
  @ApiResponse(responseCode = "200", description = "updated; ETag: its new version")
  @ApiResponse(responseCode = "404", description = "no such class")
  @ApiResponse(responseCode = "412", description = "If-Match names an older version")
  @ApiResponse(responseCode = "422", description = WORKLOAD_REFUSED)
  @PutMapping(path = "/{name}", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<SloClassBody> update(
      @PathVariable String name,
      @RequestBody SloClassBody body,
      @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch) {
    validate(name, body);
    classes.requireAllowedImage(body.spec());
    if (body.name() != null && !name.equals(body.name())) {
      throw ApiException.invalid(
          List.of(new FieldError("name", "must match the path ('" + name + "')")));
    }
    String wanted = Etags.resourceVersion(ifMatch);
    // Without If-Match the caller asked for no version: a conflict with a concurrent write
    // (the reconciler's status, which bumps the resourceVersion) is retried on a fresh read.
    for (int attempt = 1; ; attempt++) {
      SloClass current = classes.find(name);
      if (wanted != null && !wanted.equals(current.getMetadata().getResourceVersion())) {
        throw Etags.stale("SLO class", name, wanted);
      }
      current.setSpec(body.spec());
      try {
        SloClass updated = client.resources(SloClass.class).resource(current).update();
        return ResponseEntity.ok()
            .eTag(Etags.of(updated.getMetadata().getResourceVersion()))
            .body(SloClassBody.of(updated));
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
        if (wanted != null || attempt == UNVERSIONED_UPDATE_ATTEMPTS) {
          throw Etags.stale("SLO class", name, current.getMetadata().getResourceVersion());
        }
      }
    }
  }

  @Operation(
      operationId = "deleteSloClass",
      summary = "Delete an SLO class that has no tenants (its pools go with it)")
  @ApiResponse(responseCode = "202", description = "deletion started; its pools go with it")
  @ApiResponse(responseCode = "404", description = "no such class")
  @ApiResponse(responseCode = "409", description = "the class still has tenants")
  @DeleteMapping("/{name}")
  public ResponseEntity<Void> delete(@PathVariable String name) {
    classes.find(name);
    long tenants = classes.tenantsOf(name).size();
    if (tenants > 0) {
      throw new ApiException(
          HttpStatus.CONFLICT,
          "SLO class in use",
          "SLO class '" + name + "' still has " + tenants + " tenants; offboard them first",
          Map.of("tenants", tenants));
    }
    client.resources(SloClass.class).withName(name).delete();
    return ResponseEntity.accepted().build();
  }

  private static void validate(String name, SloClassBody body) {
    List<FieldError> errors = Validation.sloClass(name, body.spec());
    if (!errors.isEmpty()) {
      throw ApiException.invalid(errors);
    }
    List<FieldError> refused = WorkloadRules.problems(body.spec());
    if (!refused.isEmpty()) {
      throw ApiException.refused("Workload refused", refused);
    }
  }
}
