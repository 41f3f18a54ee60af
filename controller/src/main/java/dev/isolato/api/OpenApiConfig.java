package dev.isolato.api;

import dev.isolato.tenancy.CalibrationStatusMapper;
import dev.isolato.tenancy.SpecLimits;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import io.swagger.v3.oas.models.tags.Tag;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * OpenAPI document at /v3/api-docs, UI at /swagger-ui.html. Every operation under /api/ needs the
 * bearer token and lists every status it can answer; each error is problem+json ({@link Problem}).
 * Operations declare their own 404/409/412/422 with {@code @ApiResponse}.
 */
@Configuration
public class OpenApiConfig {
  static final String PROBLEM_JSON = "application/problem+json";
  static final String BEARER = "bearer";

  @Bean
  OpenAPI isolatoOpenApi() {
    return new OpenAPI()
        .info(
            new Info()
                .title("Isolato API")
                .version("v1")
                .description(
                    "Onboard SaaS tenants into SLO classes. Errors are RFC 9457 problem+json."))
        // Relative to where the document is served, not the host and port that served it: every
        // instance serves the same document, so docs/reference/openapi.json can equal it.
        .servers(List.of(new Server().url("/").description("the controller serving this document")))
        .components(
            new Components()
                .addSecuritySchemes(
                    BEARER,
                    new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .description(
                            "An API token (ISOLATO_API_TOKEN_FILE) or a Kubernetes token the cluster's TokenReview accepts")));
  }

  /** The statuses every API operation can answer, with the problem+json body on each error. */
  @Bean
  OpenApiCustomizer problemResponses() {
    return api -> {
      ModelConverters.getInstance().readAll(Problem.class).forEach(api.getComponents()::addSchemas);
      Schema<?> run = api.getComponents().getSchemas().get("CalibrationRun");
      if (run != null) {
        ((Schema<?>) run.getProperties().get("steps")).maxItems(CalibrationStatusMapper.MAX_STEPS);
      }
      Content problem =
          new Content()
              .addMediaType(
                  PROBLEM_JSON,
                  new MediaType().schema(new Schema<>().$ref("#/components/schemas/Problem")));
      api.getPaths()
          .forEach(
              (path, item) -> {
                if (path.startsWith("/api/")) {
                  item.readOperationsMap().forEach((method, op) -> describe(op, problem));
                }
              });
    };
  }

  /**
   * Tags in name order: springdoc lists them in the order it meets the handlers, which is not part
   * of the API, and docs/reference/openapi.json must equal the document whatever that order.
   */
  @Bean
  OpenApiCustomizer tagsByName() {
    return api -> {
      if (api.getTags() != null) {
        api.getTags().sort(Comparator.comparing(Tag::getName));
      }
    };
  }

  /** The bounds the handlers enforce on names and page sizes. */
  private static void constrain(Parameter p) {
    switch (p.getName()) {
      case "tenantId", "name", "sloClass" -> {
        p.getSchema().pattern(SpecLimits.DNS1123_LABEL).minLength(1).maxLength(Validation.MAX_NAME);
        p.required(true);
      }
      case "limit" ->
          p.getSchema().minimum(BigDecimal.ONE).maximum(BigDecimal.valueOf(Pages.MAX_LIMIT));
      default -> {}
    }
  }

  private static void describe(Operation op, Content problem) {
    ApiResponses responses = op.getResponses();
    boolean input =
        op.getRequestBody() != null
            || (op.getParameters() != null && !op.getParameters().isEmpty());
    Map<String, String> common =
        new TreeMap<>(
            Map.of(
                "401", "no or an unknown bearer token",
                "403", "the token lacks the permission this call needs",
                "502",
                    "the Kubernetes API server refused the controller's own credentials (its RBAC)",
                "503",
                    "the Kubernetes API server did not answer in time; retry after Retry-After seconds"));
    if (input) {
      common.put("400", "invalid request: errors[] names each invalid field");
    }
    if (op.getRequestBody() != null) {
      common.put("415", "the body is not application/json");
    }
    if (op.getParameters() != null) {
      op.getParameters().forEach(OpenApiConfig::constrain);
    }
    common.forEach(
        (code, why) -> {
          if (!responses.containsKey(code)) {
            responses.addApiResponse(code, new ApiResponse().description(why));
          }
        });
    responses.get("503").addHeaderObject("Retry-After", new Header().schema(new IntegerSchema()));
    responses.forEach(
        (code, r) -> {
          if (code.startsWith("4") || code.startsWith("5")) {
            r.setContent(problem);
          }
        });
    if (op.getSecurity() == null) {
      op.addSecurityItem(new SecurityRequirement().addList(BEARER));
    }
  }
}
