package dev.isolato.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.config.IsolatoProperties;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.DispatcherType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.context.support.WebApplicationContextUtils;

/**
 * Every request is authenticated (bearer tokens through the resource server's
 * BearerTokenAuthenticationFilter, over Isolato's own token sources) and authorized by {@link
 * ApiRoutes}; only probes, the OpenAPI document and its UI are open on the API port. The management
 * port (actuator: health, metrics) is open and meant for the monitoring network only. Spring
 * Security's StrictHttpFirewall rejects non-normalized paths with 400.
 */
@Configuration
@EnableWebSecurity
public class SecurityConfig {

  @Bean
  SecurityFilterChain apiSecurity(
      HttpSecurity http,
      BearerTokenProvider tokens,
      ApiAccess access,
      SecurityProblems problems,
      IsolatoProperties props)
      throws Exception {
    AuthenticationManager manager = new ProviderManager(tokens);
    http.csrf(
            AbstractHttpConfigurer
                ::disable) // bearer tokens only: no cookies, nothing a browser sends on its own
        .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
        .httpBasic(AbstractHttpConfigurer::disable)
        .formLogin(AbstractHttpConfigurer::disable)
        .logout(AbstractHttpConfigurer::disable)
        .requestCache(AbstractHttpConfigurer::disable)
        .oauth2ResourceServer(
            o ->
                o.authenticationManagerResolver(request -> manager)
                    .authenticationEntryPoint(problems)
                    .accessDeniedHandler(problems))
        .exceptionHandling(e -> e.authenticationEntryPoint(problems).accessDeniedHandler(problems))
        .authorizeHttpRequests(
            a -> {
              a.requestMatchers(managementServer()).permitAll();
              a.dispatcherTypeMatchers(DispatcherType.ERROR)
                  .permitAll(); // the original request was authorized
              a.requestMatchers(HttpMethod.GET, "/livez", "/readyz").permitAll();
              a.requestMatchers(
                      HttpMethod.GET,
                      "/v3/api-docs",
                      "/v3/api-docs/**",
                      "/swagger-ui/**",
                      "/swagger-ui.html")
                  .permitAll();
              for (ApiRoutes.Route r : ApiRoutes.all(props.namespace())) {
                a.requestMatchers(r.method(), r.pattern()).access(access.requiring(r.permission()));
              }
              a.anyRequest().access(access.adminOnly());
            });
    return http.build();
  }

  /** Requests that arrived on the management port (its own web server context). */
  private static RequestMatcher managementServer() {
    return request ->
        WebServerApplicationContext.hasServerNamespace(
            WebApplicationContextUtils.getWebApplicationContext(request.getServletContext()),
            "management");
  }

  @Bean
  SecurityProblems securityProblems(ObjectMapper json) {
    return new SecurityProblems(json);
  }

  @Bean
  BearerTokenProvider bearerTokenProvider(StaticTokens staticTokens, ClusterTokens clusterTokens) {
    return new BearerTokenProvider(staticTokens, clusterTokens);
  }

  @Bean
  ApiAccess apiAccess(KubernetesClient client, IsolatoProperties props) {
    return new ApiAccess(new AccessReviews(client, props.api(), System::nanoTime));
  }

  @Bean
  ClusterTokens clusterTokens(
      KubernetesClient client, IsolatoProperties props, MeterRegistry meters) {
    return new ClusterTokens(client, props.api(), meters, System::nanoTime);
  }

  @Bean
  StaticTokens staticTokens(KubernetesClient client, IsolatoProperties props) {
    IsolatoProperties.Api api = props.api();
    List<StaticTokens.Source> sources = new ArrayList<>();
    if (api.tokenFile() != null && !api.tokenFile().isBlank()) {
      sources.add(file(api.tokenFile(), false, StaticTokens::adminLines));
    }
    if (api.tenantTokenFile() != null && !api.tenantTokenFile().isBlank()) {
      sources.add(file(api.tenantTokenFile(), true, StaticTokens::tenantLines));
    }
    sources.add(
        secret(client, props.namespace(), api.tokensSecret(), false, StaticTokens::adminValues));
    sources.add(
        secret(
            client, props.namespace(), api.tenantTokensSecret(), true, StaticTokens::tenantValues));
    return new StaticTokens(sources, api.tokenCacheTtl().toNanos(), System::nanoTime);
  }

  private static StaticTokens.Source file(
      String path, boolean tenant, BiFunction<List<String>, String, Map<String, Caller>> parse) {
    String name = "file " + path;
    return new StaticTokens.Source(
        name, tenant, () -> parse.apply(Files.readAllLines(Path.of(path)), name));
  }

  private static StaticTokens.Source secret(
      KubernetesClient client,
      String namespace,
      String secretName,
      boolean tenant,
      BiFunction<Map<String, String>, String, Map<String, Caller>> parse) {
    String name = "Secret " + namespace + "/" + secretName;
    return new StaticTokens.Source(
        name,
        tenant,
        () -> {
          Secret s = client.secrets().inNamespace(namespace).withName(secretName).get();
          Map<String, String> data = new HashMap<>();
          if (s != null && s.getData() != null) {
            s.getData()
                .forEach(
                    (k, v) ->
                        data.put(
                            k, new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
          }
          return parse.apply(data, name);
        });
  }
}
