package dev.isolato.gatling.simulations;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;

import dev.isolato.calibration.CalibrationRun;
import dev.isolato.calibration.CalibrationStep;
import dev.isolato.calibration.RequestMix;
import dev.isolato.calibration.TenantOrder;
import dev.isolato.gatling.plan.Arrivals;
import dev.isolato.gatling.plan.ClassPlan;
import dev.isolato.gatling.plan.ClassStep;
import dev.isolato.gatling.plan.LoadPlans;
import dev.isolato.gatling.plan.Settings;
import dev.isolato.gatling.plan.TenantLoad;
import dev.isolato.gatling.stats.CalibrationReport;
import dev.isolato.gatling.stats.StepRecorder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a step plan as an open model: one Gatling scenario per (class, step) that injects users
 * evenly spaced at the class's rate during the step, each user sending one request for the tenant
 * {@link TenantOrder} gives its place: saas-bench's {@code POST
 * {base}/v1/tenants/{tenant}/requests} or a provider's endpoints as {@link RequestMix} says ({@code
 * isolato.requests}, {@code isolato.tenantHeader}). Request names are {@code <class> s<step>
 * <tenant>}, so Gatling's HTML report shows the same cells.
 *
 * <p>Latency is timed in-process around each request with {@link System#nanoTime()} (Gatling's own
 * times are whole milliseconds, too coarse for a 5 ms service) and recorded per cell, failures
 * included with the time they took. At the end, and on Ctrl-C (JVM shutdown), each class's
 * calibration JSON is written to {@code isolato.outputDir}; an interrupted run keeps its complete
 * steps and is marked partial.
 */
public abstract class PlannedLoadSimulation extends Simulation {
  private static final String T0_NANOS = "isolatoT0Nanos";
  private static final String T0_MILLIS = "isolatoT0Millis";
  private static final String TENANT = "isolatoTenant";
  private static final String REQUEST = "isolatoRequest";
  private static final String METHOD = "isolatoMethod";
  private static final String PATH = "isolatoPath";
  private static final Duration GRACE = Duration.ofSeconds(15);

  private final List<ClassPlan> plans;
  private final String runId;
  private final Path outputDir;
  private final double warmupSeconds;
  private final double jitSeconds;
  private final LoopbackTarget loopback;
  private final RequestMix mix;
  private final String body;
  private final StepRecorder recorder = new StepRecorder();
  private volatile boolean started;
  private boolean written;

  protected PlannedLoadSimulation(String kind, List<ClassPlan> plans, Settings settings) {
    this.plans = plans;
    this.runId =
        settings.string(
            "runId",
            kind
                + "-"
                + DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                    .withZone(ZoneOffset.UTC)
                    .format(Instant.now()));
    this.outputDir =
        Path.of(
            settings.string(
                "outputDir", settings.string("outputRoot", "target/calibration") + "/" + runId));
    HttpProtocolBuilder protocol =
        http.contentTypeHeader("application/json").acceptHeader("application/json");
    if (settings.bool("shareConnections", true)) {
      protocol = protocol.shareConnections();
    }
    body = settings.string("body", "{}");
    mix = settings.requestMix();
    warmupSeconds = LoadPlans.warmupSeconds(settings);
    int jitRequests = warmupSeconds > 0 ? settings.positiveInt("jitWarmupRequests", 3000) : 0;
    jitSeconds = jitRequests > 0 ? settings.positiveDouble("jitWarmupSeconds", 10.0) : 0;
    loopback = jitRequests > 0 ? new LoopbackTarget() : null;
    List<PopulationBuilder> populations = new ArrayList<>();
    double endSeconds = 0;
    if (loopback != null) {
      populations.add(jitWarmup(loopback.url(), jitRequests));
    }
    for (ClassPlan plan : plans) {
      endSeconds = Math.max(endSeconds, jitSeconds + warmupSeconds + plan.endSeconds());
      if (warmupSeconds > 0) {
        populations.add(warmup(plan));
      }
      for (ClassStep step : plan.steps()) {
        populations.add(population(plan, step));
      }
    }
    printPlan();
    setUp(populations)
        .protocols(protocol)
        .maxDuration(Duration.ofMillis((long) (endSeconds * 1000)).plus(GRACE));
  }

  /**
   * One class's step as one evenly spaced stream; each request goes to the tenant {@link
   * TenantOrder} picks for its place in the stream, so every tenant sends its exact count at its
   * rate, interleaved with the others.
   */
  private PopulationBuilder population(ClassPlan plan, ClassStep step) {
    String cls = plan.sloClass();
    int index = step.index();
    List<TenantLoad> loads = step.tenants();
    int[] order = TenantOrder.interleave(step.counts());
    long[] nth = RequestMix.nthOfTenant(order, loads.size());
    AtomicInteger next = new AtomicInteger();
    String name = String.format("%s s%02d", cls, index);
    ScenarioBuilder scenario =
        scenario(name)
            .exec(
                session -> {
                  int place = next.getAndIncrement() % order.length;
                  String tenant = loads.get(order[place]).tenantId();
                  return address(session, tenant, nth[place])
                      .set(REQUEST, name + " " + tenant)
                      .set(T0_NANOS, System.nanoTime())
                      .set(T0_MILLIS, System.currentTimeMillis());
                })
            .exec(send("#{" + REQUEST + "}", plan.baseUrl()))
            .exec(session -> record(session, cls, index, session.getString(TENANT)));
    recorder.expect(cls, index, order.length);
    return scenario.injectOpen(
        evenly(
            jitSeconds + warmupSeconds + step.offsetSeconds(),
            order.length,
            step.durationSeconds()));
  }

  /** {@code users} arrivals spread evenly over {@code seconds}, after {@code delaySeconds}. */
  private static List<OpenInjectionStep> evenly(double delaySeconds, long users, double seconds) {
    Arrivals arrivals = Arrivals.evenly(users, seconds);
    List<OpenInjectionStep> injection = new ArrayList<>();
    injection.add(nothingFor(millis(delaySeconds)));
    if (arrivals.rampUsers() > 0) {
      injection.add(
          rampUsers((int) arrivals.rampUsers()).during(Duration.ofSeconds(arrivals.rampSeconds())));
    }
    for (Arrivals.Group g : arrivals.rest()) {
      if (g.pauseMillis() > 0) {
        injection.add(nothingFor(Duration.ofMillis(g.pauseMillis())));
      }
      injection.add(atOnceUsers(g.users()));
    }
    return injection;
  }

  /**
   * One request as its session says ({@link #METHOD}, {@link #PATH}): the mix's methods are few, so
   * one guarded request per method, of which exactly one runs.
   */
  private ChainBuilder send(String name, String baseUrl) {
    ChainBuilder chain = exec(session -> session);
    for (String method : mix.endpoints().stream().map(e -> e.method()).distinct().toList()) {
      HttpRequestActionBuilder request =
          http(name).httpRequest(method, baseUrl + "#{" + PATH + "}");
      if (!mix.tenantHeader().isEmpty()) {
        request = request.header(mix.tenantHeader(), "#{" + TENANT + "}");
      }
      if (!method.equals("GET") && !method.equals("HEAD")) {
        request = request.body(StringBody(body));
      }
      chain = chain.doIfEquals("#{" + METHOD + "}", method).then(exec(request));
    }
    return chain;
  }

  /** Sets the session's tenant and, as its {@code nth} request, the mix's endpoint. */
  private Session address(Session session, String tenant, long nth) {
    RequestMix.Endpoint endpoint = mix.pick(nth);
    return session
        .set(TENANT, tenant)
        .set(METHOD, endpoint.method())
        .set(PATH, endpoint.path(tenant));
  }

  /**
   * Unrecorded requests to a loopback target in this JVM before anything reaches the pods: the JIT
   * compiles the request path on them ({@link LoopbackTarget}).
   */
  private PopulationBuilder jitWarmup(String url, int requests) {
    AtomicInteger next = new AtomicInteger();
    return scenario("jit warm-up")
        .exec(session -> address(session, "warm-up", next.getAndIncrement()))
        .exec(send("jit warm-up", url))
        .injectOpen(evenly(0, requests, jitSeconds));
  }

  /**
   * Unrecorded requests at the first step's rate before step 0: the first requests of a fresh JVM
   * pay for class loading and JIT compilation in the load generator, not in the service.
   */
  private PopulationBuilder warmup(ClassPlan plan) {
    ClassStep first = plan.steps().get(0);
    String name = plan.sloClass() + " warm-up";
    String tenant = first.tenants().get(0).tenantId();
    long users = plan.warmupRequests(warmupSeconds);
    AtomicInteger next = new AtomicInteger();
    return scenario(name)
        .exec(session -> address(session, tenant, next.getAndIncrement()))
        .exec(send(name, plan.baseUrl()))
        .injectOpen(evenly(jitSeconds, users, warmupSeconds));
  }

  private Session record(Session session, String cls, int step, String tenant) {
    long latency = System.nanoTime() - session.getLong(T0_NANOS);
    recorder.finished(
        cls,
        step,
        tenant,
        latency,
        !session.isFailed(),
        session.getLong(T0_MILLIS),
        System.currentTimeMillis());
    return session;
  }

  @Override
  public void before() {
    for (ClassPlan plan : plans) {
      requireReachable(plan.baseUrl());
    }
    started = true;
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> writeResults(true), "isolato-partial-results"));
  }

  @Override
  public void after() {
    writeResults(false);
    if (loopback != null) {
      loopback.close();
    }
  }

  /** Fails the run before any load when a target does not accept TCP connections. */
  private static void requireReachable(String baseUrl) {
    URI uri = URI.create(baseUrl);
    int port = uri.getPort() > 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(uri.getHost(), port), 3000);
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "target "
              + baseUrl
              + " is unreachable ("
              + e.getMessage()
              + "): is the class's Service up with ready pods?",
          e);
    }
  }

  /** Writes each class's run once: at the end, or from the shutdown hook when interrupted. */
  private synchronized void writeResults(boolean interrupted) {
    if (written || !started) {
      return;
    }
    written = true;
    for (ClassPlan plan : plans) {
      CalibrationRun run =
          CalibrationReport.build(
              runId, plan, recorder, index -> recorder.complete(plan.sloClass(), index));
      Path file = outputDir.resolve(plan.sloClass() + ".json");
      try {
        CalibrationReport.write(run, file);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + file, e);
      }
      printRun(run, file, interrupted);
    }
  }

  private void printPlan() {
    for (ClassPlan plan : plans) {
      System.out.printf(
          "[isolato] run %s class %s -> %s, %d steps, %.0f s planned "
              + "(+%.0f s warm-up, after %.0f s of JIT warm-up on loopback)%n",
          runId,
          plan.sloClass(),
          plan.baseUrl(),
          plan.steps().size(),
          plan.endSeconds(),
          warmupSeconds,
          jitSeconds);
      for (ClassStep step : plan.steps()) {
        System.out.printf(
            "[isolato]   step %2d: %8.2f req/s for %6.1f s, %d tenants%n",
            step.index(), step.offeredRps(), step.durationSeconds(), step.tenants().size());
      }
    }
  }

  private static void printRun(CalibrationRun run, Path file, boolean interrupted) {
    System.out.printf(
        "[isolato] %s%s: %d complete steps -> %s%n",
        run.sloClass(),
        run.partial() ? (interrupted ? " (interrupted, partial)" : " (partial)") : "",
        run.steps().size(),
        file.toAbsolutePath());
    System.out.printf(
        "[isolato]   %4s %9s %9s %6s %5s %8s %8s %8s%n",
        "step", "offered", "achieved", "count", "KO", "p50 ms", "p95 ms", "p99 ms");
    for (CalibrationStep s : run.steps()) {
      System.out.printf(
          "[isolato]   %4d %9.2f %9.2f %6d %5d %8.3f %8.3f %8.3f%n",
          s.index(),
          s.offeredRps(),
          s.achievedRps(),
          s.total().count(),
          s.total().errors(),
          s.total().p50(),
          s.total().p95(),
          s.total().p99());
    }
  }

  private static Duration millis(double seconds) {
    return Duration.ofMillis(Math.round(seconds * 1000));
  }
}
