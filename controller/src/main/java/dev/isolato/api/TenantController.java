package dev.isolato.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.calibration.FieldError;
import dev.isolato.config.IsolatoProperties;
import dev.isolato.config.KubernetesConfig;
import dev.isolato.tenancy.PoolNames;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.Tenant;
import dev.isolato.tenancy.TenantSpec;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
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

/** Onboarding: tenants are Tenant custom resources; the API server is the only store. */
@RestController
@Tag(name = "tenants", description = "Onboarding, changing and offboarding tenants")
@RequestMapping("/api/v1/tenants")
@SecurityRequirement(name = "bearer")
public class TenantController {
  private final KubernetesClient client;
  private final String namespace;

  /** Compares a stored spec with a requested one field by field. */
  private static final ObjectMapper SAME = new ObjectMapper();

  private final SloClasses classes;
  private final Admissions admissions;

  public TenantController(
      @Qualifier(KubernetesConfig.API_CLIENT) KubernetesClient client,
      IsolatoProperties props,
      SloClasses classes,
      Admissions admissions) {
    this.client = client;
    this.classes = classes;
    this.admissions = admissions;
    this.namespace = props.namespace();
  }

  private MixedOperation<Tenant, KubernetesResourceList<Tenant>, Resource<Tenant>> tenants() {
    return client.resources(Tenant.class);
  }

  @Operation(
      operationId = "onboardTenant",
      summary = "Onboard a tenant into an SLO class",
      description =
          "Idempotent: repeating the same body for an existing tenant answers 200 with it; "
              + "another body for the same tenantId is 409. 422 when the class does not exist, does not allow "
              + "dedicated tenants, or cannot take the committed rate (remainingRps, capacityRps).")
  @ApiResponse(
      responseCode = "201",
      description = "onboarded; Location and ETag name the tenant",
      content =
          @Content(
              mediaType = "application/json",
              schema = @Schema(implementation = TenantResponse.class)))
  @ApiResponse(
      responseCode = "200",
      description = "the tenant exists with exactly these settings (a repeated POST)",
      content =
          @Content(
              mediaType = "application/json",
              schema = @Schema(implementation = TenantResponse.class)))
  @ApiResponse(
      responseCode = "409",
      description = "the tenant exists with other settings, or is being offboarded")
  @ApiResponse(
      responseCode = "422",
      description = "unknown sloClass, dedicated isolation not offered, or capacity exceeded")
  @PostMapping(produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<TenantResponse> create(@RequestBody TenantRequest req) {
    List<FieldError> errors = Validation.tenant(req);
    if (!errors.isEmpty()) {
      throw ApiException.invalid(errors);
    }
    TenantSpec spec = toSpec(req);
    // a shared tenant the watch has not seen is created at once (one API round trip less on the
    // common path); if it exists after all, the create's 409 leads to the same answer as a read
    // here. A dedicated one is read first: its namespace check would refuse a repeated POST.
    if (admissions.mayExist(req.tenantId()) || spec.isolation == TenantSpec.Isolation.dedicated) {
      Tenant existing = tenants().inNamespace(namespace).withName(req.tenantId()).get();
      if (existing != null) {
        return repeated(existing, spec);
      }
    }
    SloClass cls = admissible(spec);
    if (spec.isolation == TenantSpec.Isolation.dedicated) {
      classes.requireFreeNamespace(PoolNames.dedicatedNamespace(req.tenantId()), "tenantId");
    }
    Tenant t = new Tenant();
    t.setMetadata(
        new ObjectMetaBuilder()
            .withName(req.tenantId())
            .withNamespace(namespace)
            .addToFinalizers(Tenant.FINALIZER)
            .addToAnnotations(Tenant.ACCEPTED_AT, Long.toString(System.currentTimeMillis()))
            .build());
    t.setSpec(spec);
    Tenant created;
    try {
      created =
          admissions.admit(
              cls,
              req.tenantId(),
              spec,
              () -> tenants().inNamespace(namespace).resource(t).create());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return repeated(find(req.tenantId()), spec);
      }
      throw e;
    }
    return ResponseEntity.created(URI.create("/api/v1/tenants/" + req.tenantId()))
        .eTag(Etags.of(created.getMetadata().getResourceVersion()))
        .body(TenantResponse.of(created));
  }

  /** A POST for a tenant that exists: 200 when it asks for exactly what is stored, else 409. */
  private ResponseEntity<TenantResponse> repeated(Tenant existing, TenantSpec spec) {
    String id = existing.getMetadata().getName();
    if (existing.getMetadata().getDeletionTimestamp() != null) {
      throw new ApiException(
          HttpStatus.CONFLICT,
          "Tenant being offboarded",
          "tenant '" + id + "' is being offboarded; onboard it again once GET answers 404",
          Map.of("field", "tenantId"));
    }
    if (!SAME.valueToTree(existing.getSpec()).equals(SAME.valueToTree(spec))) {
      throw new ApiException(
          HttpStatus.CONFLICT,
          "Tenant exists",
          "tenant '" + id + "' already exists with other settings; change them with PUT",
          Map.of("field", "tenantId"));
    }
    return ResponseEntity.ok()
        .eTag(Etags.of(existing.getMetadata().getResourceVersion()))
        .body(TenantResponse.of(existing));
  }

  @Operation(operationId = "getTenant", summary = "Get a tenant and its onboarding status")
  @ApiResponse(responseCode = "200", description = "the tenant; ETag: its version")
  @ApiResponse(responseCode = "404", description = "no such tenant")
  @GetMapping(path = "/{tenantId}", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<TenantResponse> get(@PathVariable String tenantId) {
    Tenant t = find(tenantId);
    return ResponseEntity.ok()
        .eTag(Etags.of(t.getMetadata().getResourceVersion()))
        .body(TenantResponse.of(t));
  }

  @ApiResponse(responseCode = "200", description = "one page; continueToken fetches the next")
  @ApiResponse(
      responseCode = "422",
      description = "continue is not a token of this list, or has expired")
  @Operation(
      operationId = "listTenants",
      summary = "List tenants, a page at a time (limit, continue)")
  @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
  public TenantResponse.Page list(
      @RequestParam(defaultValue = "100") int limit,
      @RequestParam(name = "continue", required = false) String continueToken) {
    var page = Pages.fetch(limit, continueToken, o -> tenants().inNamespace(namespace).list(o));
    return new TenantResponse.Page(
        page.getItems().stream().map(TenantResponse::of).toList(), Pages.next(page));
  }

  @Operation(
      operationId = "updateTenant",
      summary = "Change a tenant's rate, burst or profile (If-Match: its ETag)")
  @ApiResponse(responseCode = "200", description = "updated; ETag: its new version")
  @ApiResponse(responseCode = "404", description = "no such tenant")
  @ApiResponse(responseCode = "412", description = "If-Match names an older version")
  @ApiResponse(responseCode = "422", description = "unknown sloClass, or capacity exceeded")
  @PutMapping(path = "/{tenantId}", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<TenantResponse> update(
      @PathVariable String tenantId,
      @RequestBody TenantRequest req,
      @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch) {
    TenantRequest full =
        new TenantRequest(
            req.tenantId() == null ? tenantId : req.tenantId(),
            req.sloClass(),
            req.committedRps(),
            req.burst(),
            req.profile(),
            req.isolation());
    List<FieldError> errors = new java.util.ArrayList<>(Validation.tenant(full));
    if (!tenantId.equals(full.tenantId())) {
      errors.add(new FieldError("tenantId", "must match the path ('" + tenantId + "')"));
    }
    if (!errors.isEmpty()) {
      throw ApiException.invalid(errors);
    }
    Tenant current = find(tenantId);
    String wanted = Etags.resourceVersion(ifMatch);
    if (wanted != null && !wanted.equals(current.getMetadata().getResourceVersion())) {
      throw Etags.stale("tenant", tenantId, wanted);
    }
    TenantSpec spec = toSpec(full);
    if (!spec.sloClass.equals(current.getSpec().sloClass)) {
      throw ApiException.invalid(
          List.of(
              new FieldError("sloClass", "cannot change; delete and onboard the tenant again")));
    }
    if (spec.isolation != current.getSpec().isolation) {
      throw ApiException.invalid(
          List.of(
              new FieldError("isolation", "cannot change; delete and onboard the tenant again")));
    }
    SloClass cls = admissible(spec);
    current.setSpec(spec);
    current.setStatus(null);
    if (wanted != null) {
      current.getMetadata().setResourceVersion(wanted);
    }
    try {
      Tenant updated =
          admissions.admit(
              cls,
              tenantId,
              spec,
              () -> tenants().inNamespace(namespace).resource(current).update());
      return ResponseEntity.ok()
          .eTag(Etags.of(updated.getMetadata().getResourceVersion()))
          .body(TenantResponse.of(updated));
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        throw Etags.stale("tenant", tenantId, current.getMetadata().getResourceVersion());
      }
      throw e;
    }
  }

  @Operation(
      operationId = "offboardTenant",
      summary = "Offboard a tenant: it leaves every table, a dedicated namespace is removed")
  @ApiResponse(responseCode = "202", description = "offboarding started")
  @ApiResponse(responseCode = "404", description = "no such tenant")
  @DeleteMapping("/{tenantId}")
  public ResponseEntity<Void> delete(@PathVariable String tenantId) {
    if (!Validation.possibleName(tenantId)
        || tenants().inNamespace(namespace).withName(tenantId).delete().isEmpty()) {
      throw ApiException.notFound("tenant", tenantId);
    }
    admissions.forget(tenantId);
    return ResponseEntity.accepted().build();
  }

  private Tenant find(String tenantId) {
    Tenant t =
        Validation.possibleName(tenantId)
            ? tenants().inNamespace(namespace).withName(tenantId).get()
            : null;
    if (t == null) {
      throw ApiException.notFound("tenant", tenantId);
    }
    return t;
  }

  /** The tenant's class; 422 when it does not exist or does not offer the asked isolation. */
  private SloClass admissible(TenantSpec spec) {
    // the watched copy saves a read of the API server on each onboarding
    SloClass cls =
        classes.referenced(
            spec.sloClass, "sloClass", admissions.watchedClass(spec.sloClass).orElse(null));
    if (spec.isolation == TenantSpec.Isolation.dedicated && !cls.getSpec().allowDedicated) {
      throw new ApiException(
          HttpStatus.UNPROCESSABLE_ENTITY,
          "Dedicated isolation not offered",
          "class '" + spec.sloClass + "' does not allow dedicated tenants",
          Map.of("field", "isolation"));
    }
    return cls;
  }

  static TenantSpec toSpec(TenantRequest r) {
    TenantSpec s = new TenantSpec();
    s.sloClass = r.sloClass();
    s.committedRps = r.committedRps();
    s.burst = r.burst();
    if (r.profile() != null) {
      s.profile.cpu = r.profile().cpu() == null ? 0 : r.profile().cpu();
      s.profile.memory = r.profile().memory() == null ? 0 : r.profile().memory();
      s.profile.io = r.profile().io() == null ? 0 : r.profile().io();
      s.profile.fsync = Boolean.TRUE.equals(r.profile().fsync());
    }
    s.isolation =
        r.isolation() == null
            ? TenantSpec.Isolation.shared
            : TenantSpec.Isolation.valueOf(r.isolation());
    return s;
  }
}
