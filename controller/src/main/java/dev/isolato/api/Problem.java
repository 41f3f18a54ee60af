package dev.isolato.api;

import dev.isolato.calibration.FieldError;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * The shape of every error body (application/problem+json, RFC 9457), for the OpenAPI document; the
 * bodies themselves are Spring's ProblemDetail built by {@link ProblemAdvice}.
 */
@Schema(
    name = "Problem",
    additionalProperties = Schema.AdditionalPropertiesValue.TRUE,
    description =
        "RFC 9457 problem details; further members name the field (field) or the numbers behind a refusal "
            + "(remainingRps, capacityRps, tenants)")
public record Problem(
    @Schema(description = "URI of the problem type", example = "about:blank") String type,
    @Schema(description = "short summary of the problem type", example = "Invalid request")
        String title,
    @Schema(description = "the HTTP status", example = "400") int status,
    @Schema(description = "what went wrong and what to do about it") String detail,
    @Schema(description = "the request path") String instance,
    @Schema(description = "400: every invalid field, by JSON path") List<FieldError> errors) {}
