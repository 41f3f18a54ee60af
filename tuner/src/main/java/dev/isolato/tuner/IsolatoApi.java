package dev.isolato.tuner;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;

/** Isolato's REST API as the path benchmark drives it: a bearer token, JSON in and out. */
final class IsolatoApi {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final URI base;
  private final String token;

  IsolatoApi(URI base, String token) {
    this.base = base;
    this.token = token;
  }

  URI base() {
    return base;
  }

  /**
   * Sends {@code method path} with {@code json} (null: no body) and fails unless the status is one
   * of {@code expected}; the error quotes Isolato's problem+json.
   */
  String call(String method, String path, String json, int... expected) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(TIMEOUT)
            .header("Authorization", "Bearer " + token)
            .method(
                method,
                json == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json));
    if (json != null) {
      b.header("Content-Type", "application/json");
    }
    try {
      HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
      if (Arrays.stream(expected).noneMatch(s -> s == r.statusCode())) {
        throw new IllegalStateException(
            method + " " + path + ": HTTP " + r.statusCode() + " " + r.body().strip());
      }
      return r.body();
    } catch (IOException e) {
      throw new IllegalStateException(
          method + " " + base.resolve(path) + " failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + method + " " + path, e);
    }
  }

  /** Whether the controller answers its readiness probe (no token needed). */
  boolean ready() {
    try {
      return http.send(
                  HttpRequest.newBuilder(base.resolve("/readyz")).timeout(TIMEOUT).build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
