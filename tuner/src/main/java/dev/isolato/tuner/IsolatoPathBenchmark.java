package dev.isolato.tuner;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.isolato.pipeline.Hardware;
import dev.isolato.pipeline.WorkloadShape;
import dev.isolato.pipeline.run.ComponentMeter;
import dev.isolato.pipeline.run.CpuMeter;
import dev.isolato.pipeline.run.DeploymentBenchmark;
import dev.isolato.pipeline.run.KubeletMeter;
import dev.isolato.pipeline.run.PipelineBenchmark;
import dev.isolato.pipeline.run.PipelineProperties;
import dev.isolato.pipeline.run.PoolTrace;
import dev.isolato.tenancy.PoolNames;
import dev.isolato.tenancy.Tenant;
import dev.isolato.tenancy.Workload;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * Isolato's own deployment paths as loop benchmarks (issue 11 item 5), driven through its REST API
 * like a provider would, on a class of their own with dedicated tenants allowed:
 *
 * <ul>
 *   <li>{@link Path#TENANTS}: J dedicated tenants onboarded at once (J namespaces, each with its
 *       pool of one pod), a J × 1 shape;
 *   <li>{@link Path#SCALE}: the class's pool scaled from 1 to 1 + P pods, a 1 × P shape;
 *   <li>{@link Path#CLASS}: a new class created with a pool of P pods (its namespace, quota,
 *       priority class and pool), a 1 × P shape.
 * </ul>
 *
 * The model's single-pod input (a 1 × 1 shape) is one dedicated tenant onboarded alone for the
 * first two, a new class with a pool of one pod for the third. Every run is traced from its first
 * API call ({@link PoolTrace}) and undone before the next (tenants offboarded, a new class deleted,
 * and their namespaces gone; the pool back at one pod). {@link #close} deletes the class and any
 * new class a failed run left. Only objects of these classes and of tenants they onboarded are
 * touched.
 */
final class IsolatoPathBenchmark implements PipelineBenchmark, AutoCloseable {

  enum Path {
    TENANTS,
    SCALE,
    CLASS
  }

  /** Its tenants' ids: this, the run's name and an index. */
  static final String TENANT_PREFIX = "pl-";

  /** Clients onboarding at once, as tenants-bench.sh's. */
  static final int CLIENTS = 10;

  /**
   * The class's CPU per pod (requests == limits): the smallest a class may have above the
   * isolato-gate sidecar's fixed 50m, so that the default 25 dedicated pools fit on two cores. It
   * throttles each pool pod's own start (the model counts it: {@link
   * WorkloadShape#podCpuLimitMillis}).
   */
  static final int POD_CPU_MILLIS = 60;

  private static final Duration GONE_TIMEOUT = Duration.ofMinutes(5);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final KubernetesClient client;
  private final IsolatoApi api;
  private final Path path;
  private final String className;
  private final String image;
  private final String isolatoNamespace;
  private final CpuMeter meter;
  private final LongSupplier controllerPid;
  private final Duration timeout;

  /**
   * The classes this benchmark created, in order: its own class, and {@link Path#CLASS}'s per run
   * ({@code <class>-<n>}). Only these are ever deleted: a name that was taken is someone else's.
   */
  private final List<String> created = new ArrayList<>();

  private int runs;

  IsolatoPathBenchmark(
      KubernetesClient client,
      IsolatoApi api,
      Path path,
      String className,
      String image,
      String isolatoNamespace,
      CpuMeter meter,
      LongSupplier controllerPid,
      Duration timeout) {
    this.client = client;
    this.api = api;
    this.path = path;
    this.className = className;
    this.image = image;
    this.isolatoNamespace = isolatoNamespace;
    this.meter = meter;
    this.controllerPid = controllerPid;
    this.timeout = timeout;
  }

  /**
   * The shape a path is measured as: J tenants × 1 pod, or 1 pool × P new pods (scaled out or a new
   * class's); the pods' CPU limit is the class's.
   */
  static WorkloadShape shape(Path path, int workloads, int pods) {
    return path == Path.TENANTS
        ? new WorkloadShape(workloads, 1, 1, POD_CPU_MILLIS)
        : new WorkloadShape(1, pods, 1, POD_CPU_MILLIS);
  }

  /**
   * Creates the class (refused if it exists: it would not be this benchmark's) and its pool; the
   * new class path creates its own per run.
   */
  void prepare() throws InterruptedException {
    if (path != Path.CLASS) {
      api.call("POST", "/api/v1/slo-classes", classJson(className, 1), 201);
      created.add(className);
      awaitPool(1);
    }
  }

  @Override
  public Hardware hardware() {
    return DeploymentBenchmark.hardware(client, PipelineProperties.defaults(), Optional.empty());
  }

  /** With the controller running: its own idle work is not the path's. */
  @Override
  public CpuMeter.Usage idle() throws InterruptedException {
    return meter.withClient(controllerPid.getAsLong()).idle(IDLE_WINDOW);
  }

  @Override
  public String workload(WorkloadShape shape) {
    return switch (path) {
      case TENANTS -> shape.workloads() + " dedicated tenants onboarded at once";
      case SCALE -> "a pool scaled from 1 to " + (1 + shape.podsPerWorkload()) + " pods";
      case CLASS -> "a new class with a pool of " + shape.podsPerWorkload() + " pods";
    };
  }

  @Override
  public Set<String> notExercised() {
    // the image is on the node: nothing is pulled; a scale-out creates no pool
    // a new class is one reconcile applying one pool
    return path == Path.TENANTS
        ? DeploymentBenchmark.imagePullsAnd()
        : DeploymentBenchmark.imagePullsAnd(
            "isolato.pool-apply-threads", "isolato.reconcile-threads");
  }

  @Override
  public Run run(WorkloadShape shape, String name) throws InterruptedException {
    boolean single = shape.workloads() == 1 && shape.podsPerWorkload() == 1;
    if (path == Path.CLASS) {
      String cls = className + "-" + ++runs;
      return traced(
          shape,
          () -> {
            api.call("POST", "/api/v1/slo-classes", classJson(cls, shape.pods()), 201);
            created.add(cls);
          },
          () -> {
            if (created.contains(cls)) {
              deleteClass(cls);
            }
          });
    }
    if (single || path == Path.TENANTS) {
      List<String> ids =
          IntStream.range(0, shape.workloads())
              .mapToObj(i -> TENANT_PREFIX + name + "-" + i)
              .toList();
      // only the tenants onboarded here are offboarded: an id that was taken is someone else's
      List<String> onboarded = Collections.synchronizedList(new ArrayList<>());
      return traced(shape, () -> onboard(ids, onboarded), () -> offboard(List.copyOf(onboarded)));
    }
    int to = 1 + shape.podsPerWorkload();
    return traced(
        shape,
        () -> api.call("PUT", "/api/v1/slo-classes/" + className, classJson(className, to), 200),
        () -> {
          api.call("PUT", "/api/v1/slo-classes/" + className, classJson(className, 1), 200);
          awaitPool(1);
        });
  }

  private interface Step {
    void run() throws InterruptedException;
  }

  private Run traced(WorkloadShape shape, Step begin, Step undo) throws InterruptedException {
    PoolTrace.Result r;
    ComponentMeter components = ComponentMeter.of(client, KubeletMeter.of(client), true);
    long working;
    try (PoolTrace trace =
        PoolTrace.start(client, meter.withClient(controllerPid.getAsLong()), components)) {
      working = trace.workingPodsBefore();
      begin.run();
      r = trace.await(shape.pods(), timeout);
    } catch (RuntimeException | InterruptedException e) {
      // undone all the same; a failing undo must not hide why the run failed
      try {
        undo.run();
      } catch (RuntimeException | InterruptedException u) {
        e.addSuppressed(u);
      }
      throw e;
    }
    undo.run();
    // the next run starts on a node that has finished this one
    components.kubelets().awaitSettled(working, GONE_TIMEOUT);
    if (r.readyPods() < shape.pods()) {
      throw new IllegalStateException(
          r.readyPods()
              + " of "
              + shape.pods()
              + " new pods Ready after "
              + timeout.toSeconds()
              + " s (--timeout); stages seen: "
              + r.stages());
    }
    return new Run(
        shape, r.stages(), r.seconds(), r.cpu(), r.steps(), Run.createSpan(r.timelines()));
  }

  private void onboard(List<String> ids, List<String> onboarded) throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(CLIENTS, ids.size()));
    try {
      List<Future<String>> sent = new ArrayList<>();
      for (String id : ids) {
        sent.add(
            pool.submit(
                () -> {
                  String body = api.call("POST", "/api/v1/tenants", tenantJson(id), 201);
                  onboarded.add(id);
                  return body;
                }));
      }
      for (Future<String> f : sent) {
        f.get();
      }
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
    } finally {
      pool.shutdown();
      pool.awaitTermination(1, TimeUnit.MINUTES);
    }
  }

  /** Offboards through the API and waits until the tenants and their namespaces are gone. */
  private void offboard(List<String> ids) throws InterruptedException {
    for (String id : ids) {
      api.call("DELETE", "/api/v1/tenants/" + id, null, 202, 204, 404);
    }
    for (String id : ids) {
      gone(client.resources(Tenant.class).inNamespace(isolatoNamespace).withName(id));
      gone(client.namespaces().withName(PoolNames.dedicatedNamespace(id)));
    }
  }

  private void awaitPool(int replicas) {
    Predicate<Deployment> at =
        d ->
            d != null
                && d.getStatus() != null
                && Objects.equals(d.getStatus().getReplicas(), replicas)
                && Objects.equals(d.getStatus().getReadyReplicas(), replicas);
    client
        .apps()
        .deployments()
        .inNamespace(PoolNames.sharedNamespace(className))
        .withName(Workload.NAME)
        .waitUntilCondition(at, GONE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
  }

  private static <T> void gone(io.fabric8.kubernetes.client.dsl.Resource<T> resource) {
    resource.waitUntilCondition(Objects::isNull, GONE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
  }

  /**
   * Deletes the classes it created (its own, and any new class a failed run left) and waits until
   * they are gone.
   */
  @Override
  public void close() {
    created.forEach(this::deleteClass);
  }

  /** Deletes a class of this benchmark's and waits until its namespace is gone. */
  private void deleteClass(String name) {
    api.call("DELETE", "/api/v1/slo-classes/" + name, null, 202, 204, 404);
    gone(client.namespaces().withName(PoolNames.sharedNamespace(name)));
  }

  String classJson(String name, int replicas) {
    return json(
        Map.of(
            "name",
            name,
            "spec",
            Map.of(
                "latency",
                Map.of("percentile", 95, "targetMs", 100),
                "resources",
                Map.of("cpu", POD_CPU_MILLIS + "m", "memory", "32Mi"),
                "priority",
                500,
                "allowDedicated",
                true,
                "minReplicas",
                replicas,
                "maxReplicas",
                Math.max(replicas, 10),
                "pivotPercent",
                70,
                "perPodCutoffRps",
                1000,
                "image",
                image)));
  }

  String tenantJson(String id) {
    return json(
        Map.of(
            "tenantId",
            id,
            "sloClass",
            className,
            "committedRps",
            1,
            "profile",
            Map.of("cpu", 1, "memory", 4, "io", 0),
            "isolation",
            "dedicated"));
  }

  private static String json(Object o) {
    try {
      return JSON.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
