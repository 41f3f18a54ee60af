package dev.isolato.api;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** OpenAPI document at /v3/api-docs, UI at /swagger-ui.html. */
@Configuration
public class OpenApiConfig {
  @Bean
  OpenAPI isolatoOpenApi() {
    return new OpenAPI()
        .info(new Info().title("Isolato API").version("v1")
            .description("Onboard SaaS tenants into SLO classes. Errors are RFC 9457 problem+json."))
        .components(new Components().addSecuritySchemes("bearer",
            new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")));
  }
}
