package dev.isolato.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A pool pod as the controller sees it on a bare kube-apiserver (no kubelet): a table holder like
 * saas-bench's admin API in this JVM — refuses a lower revision with 409, answers a GET with the
 * version and revision it holds, and logs what it was asked ("PUT", "409", "GET") — behind a
 * hand-made EndpointSlice naming a Pod object. Stop its {@link #server} after the test.
 */
final class FakePod {
  private static final ObjectMapper JSON = new ObjectMapper();

  final HttpServer server;
  final String name;
  final AtomicLong revision = new AtomicLong();
  final AtomicReference<String> version = new AtomicReference<>("");
  final AtomicInteger conflicts = new AtomicInteger();
  final AtomicBoolean refuseAll = new AtomicBoolean();
  final List<String> calls = new CopyOnWriteArrayList<>();

  FakePod(String name) throws Exception {
    this.name = name;
    server = HttpServer.create(new InetSocketAddress(ItBase.hostAddress(), 0), 0);
    server.createContext(
        "/v1/admin/tenants",
        ex -> {
          byte[] in = ex.getRequestBody().readAllBytes();
          int status = 200;
          if ("PUT".equals(ex.getRequestMethod())) {
            JsonNode table = JSON.readTree(in);
            long incoming = table.path("revision").asLong();
            if (refuseAll.get() || incoming < revision.get()) {
              conflicts.incrementAndGet();
              status = 409;
            } else {
              revision.set(incoming);
              version.set(table.path("version").asText());
            }
            calls.add(status == 409 ? "409" : "PUT");
          } else {
            calls.add("GET");
          }
          String body =
              status == 409
                  ? "{\"title\":\"tenant table not applied\"}"
                  : JSON.writeValueAsString(
                      Map.of("version", version.get(), "revision", revision.get()));
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(status, bytes.length);
          ex.getResponseBody().write(bytes);
          ex.close();
        });
    server.start();
  }

  /**
   * A fake pod of {@code pool}: a Pod object with these labels (and the pool template's spec, which
   * the pool namespace's admission accepts), its server, and an EndpointSlice naming both.
   */
  static FakePod inPool(String pool, String name, Deployment d, Map<String, String> labels)
      throws Exception {
    FakePod p = new FakePod(name);
    ItBase.kube
        .resource(
            new PodBuilder()
                .withMetadata(
                    new ObjectMetaBuilder()
                        .withName(name)
                        .withNamespace(pool)
                        .withLabels(labels)
                        .build())
                .withSpec(d.getSpec().getTemplate().getSpec())
                .build())
        .create();
    Pod created = ItBase.kube.pods().inNamespace(pool).withName(name).get();
    ItBase.poolEndpoint(pool, name, p.server.getAddress(), created);
    return p;
  }

  /** A refused push, the revision read after it, and a later push: that pass has decided. */
  boolean refusedReadAndPushedAgain() {
    List<String> c = List.copyOf(calls);
    int refused = c.indexOf("409");
    int read = refused < 0 ? -1 : c.subList(refused, c.size()).indexOf("GET");
    return read >= 0 && c.subList(refused + read, c.size()).contains("409");
  }

  long puts() {
    return calls.stream().filter("PUT"::equals).count();
  }

  long reads() {
    return calls.stream().filter("GET"::equals).count();
  }
}
