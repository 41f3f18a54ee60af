package dev.isolato.api;

import dev.isolato.config.IsolatoProperties;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Decides whether a bearer token may use the API: static tokens (a file for local use, or
 * the values of a Secret) first, then the cluster's TokenReview. Verdicts are cached briefly
 * so that a burst of calls costs one review.
 */
@Component
public class TokenAuthenticator {
  private final KubernetesClient client;
  private final IsolatoProperties props;
  private final Clock clock = Clock.systemUTC();
  private final Map<String, Verdict> cache = new ConcurrentHashMap<>();

  private record Verdict(Optional<String> user, Instant until) {}

  public TokenAuthenticator(KubernetesClient client, IsolatoProperties props) {
    this.client = client;
    this.props = props;
  }

  /** The user a token belongs to, or empty when it is not valid. */
  public Optional<String> authenticate(String token) {
    String key = sha256(token);
    Instant now = clock.instant();
    Verdict v = cache.get(key);
    if (v != null && v.until().isAfter(now)) {
      return v.user();
    }
    Optional<String> user = staticTokens().contains(token) ? Optional.of("static-token") : review(token);
    cache.put(key, new Verdict(user, now.plus(props.api().tokenCacheTtl())));
    return user;
  }

  private Set<String> staticTokens() {
    Set<String> tokens = new HashSet<>();
    String file = props.api().tokenFile();
    if (file != null && !file.isBlank()) {
      try {
        Files.readAllLines(Path.of(file)).stream().map(String::trim).filter(s -> !s.isEmpty()).forEach(tokens::add);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read API token file " + file, e);
      }
    }
    Secret s = client.secrets().inNamespace(props.namespace()).withName(props.api().tokensSecret()).get();
    if (s != null && s.getData() != null) {
      s.getData().values().forEach(b64 -> tokens.add(new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8).trim()));
    }
    return tokens;
  }

  private Optional<String> review(String token) {
    if (!props.api().tokenReview()) {
      return Optional.empty();
    }
    TokenReview r = client.resource(new TokenReviewBuilder().withNewSpec().withToken(token).endSpec().build()).create();
    if (r.getStatus() != null && Boolean.TRUE.equals(r.getStatus().getAuthenticated())) {
      return Optional.of(r.getStatus().getUser().getUsername());
    }
    return Optional.empty();
  }

  private static String sha256(String s) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
