package dev.isolato.tenancy;

import java.util.ArrayList;
import java.util.List;

/**
 * The contract the pool objects rely on: the gate sidecar (GATE-CONTRACT.md: the pod's service
 * port, admin and metrics endpoints) in front of the class's app, which is saas-bench
 * (docs/saas-bench.md) or the provider's workload (docs/bring-your-service.md). One place to adapt.
 */
public final class Workload {
  /** The pool's Deployment and Service name and the pods' app.kubernetes.io/name (kept stable). */
  public static final String NAME = "saas-bench";

  public static final String DEFAULT_IMAGE = "localhost/isolato/saas-bench:dev";

  /** The service port of every pool pod: the gate's. */
  public static final int PORT = 8080;

  /**
   * The gate's probe port: the kubelet's readiness probe on a thread of the gate's own, not queued
   * behind tenants' connections (docs/gate.md). Not in the Service; the app may not use it.
   */
  public static final int PROBE_PORT = 8079;

  public static final String GATE_NAME = WorkloadRules.GATE_CONTAINER;
  public static final String GATE_IMAGE = "localhost/isolato/gate:dev";

  /** Where saas-bench listens behind the gate (loopback only: nothing but the gate reaches it). */
  public static final int SAAS_BENCH_PORT = 8081;

  /** The tenant key of saas-bench classes: its own route /v1/tenants/{id}/... */
  public static final String SAAS_BENCH_TENANT_KEY = "path:/v1/tenants/";

  /** The tenant key of workload classes that declare none. */
  public static final String DEFAULT_TENANT_KEY = "header:X-Tenant";

  /**
   * The gate's fixed share of every pool pod (requests == limits), taken out of the class's pod
   * size so the pod, the quota and the calibrated cut-off keep meaning the same whole pod: the gate
   * parses, counts and forwards, and its memory is its connection buffers. Measured in a pool pod
   * (isolato-bench gate-share, results/httpbin-alone/gate-share.json): about 70 us of CPU per
   * request inside its 50m under CFS, 41m at 575 req/s with some throttling, so 50m carries a pod
   * up to about 600 req/s.
   */
  public static final long GATE_CPU_MILLIS = 50;

  public static final String GATE_MEMORY = "24Mi";

  /**
   * The gate's client connections at once, so that its memory stays inside {@link #GATE_MEMORY}
   * under overload; one more is closed at once and counted as an overload rejection. A request that
   * waits upstream costs the gate's cgroup 14 KiB (user and kernel memory), and in a pod its 4.1
   * MiB static binary is charged too: 1,024 of them take about 18.4 MiB, 1,536 took 25 MiB and were
   * OOM-killed in a pool pod on 2026-11-29 (gate/test/memory_test.py, in make test, fails when the
   * cap outgrows the memory).
   */
  public static final int GATE_MAX_CONNECTIONS = 1024;

  public static final String TABLE_DIR = "/etc/saas-bench/table";
  public static final String ADMIN_DIR = "/etc/saas-bench/admin";
  public static final String ADMIN_TOKEN_KEY = "token";
  public static final String ADMIN_TABLE_PATH = "/v1/admin/tenants";
  public static final String TABLE_CONFIGMAP = "tenant-table";
  public static final String ADMIN_SECRET = "saas-bench-admin";

  /** Scratch directory of the io stress (an emptyDir). */
  public static final String DATA_DIR = "/data";

  /** The filler Deployment of a class with vertical headroom (its pods soak idle CPU). */
  public static final String FILLER_NAME = "isolato-filler";

  /** The filler's memory (requests == limits): saas-bench's soak allocates nothing per step. */
  public static final String FILLER_MEMORY = "16Mi";

  private Workload() {}

  /** Whether the class runs the provider's workload (else saas-bench, spec.image). */
  public static boolean isProvided(SloClassSpec spec) {
    return spec != null && spec.workload != null && spec.workload.containers != null;
  }

  /** The app image a class's pods run: its workload's, its spec.image, or the saas-bench image. */
  public static String imageOf(SloClassSpec spec) {
    return isProvided(spec) ? spec.workload.containers.get(0).image : saasBenchImage(spec);
  }

  /** The field naming {@link #imageOf}'s image in the class spec. */
  public static String imageField(SloClassSpec spec) {
    return isProvided(spec) ? "spec.workload.containers[0].image" : "spec.image";
  }

  /** The saas-bench image of a class (its app, or its filler's soak). */
  public static String saasBenchImage(SloClassSpec spec) {
    return spec == null || spec.image == null || spec.image.isBlank() ? DEFAULT_IMAGE : spec.image;
  }

  /** The port the app serves on behind the gate. */
  public static int upstreamPort(SloClassSpec spec) {
    return isProvided(spec)
        ? spec.workload.containers.get(0).ports.get(0).containerPort
        : SAAS_BENCH_PORT;
  }

  /** The gate's --tenant-key for the class. */
  public static String tenantKey(SloClassSpec spec) {
    if (spec != null && spec.tenantKey != null) {
      return spec.tenantKey;
    }
    return isProvided(spec) ? DEFAULT_TENANT_KEY : SAAS_BENCH_TENANT_KEY;
  }

  /** Command-line arguments of the gate container (GATE-CONTRACT.md). */
  public static List<String> gateArgs(SloClassSpec spec) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--listen", "0.0.0.0:" + PORT,
                "--probe-listen", "0.0.0.0:" + PROBE_PORT,
                "--upstream", "127.0.0.1:" + upstreamPort(spec),
                "--tenant-key", tenantKey(spec),
                "--unknown-tenant", unknownTenant(spec).name(),
                "--tenants", TABLE_DIR + "/" + TenantTable.FILE,
                "--admin-token-file", ADMIN_DIR + "/" + ADMIN_TOKEN_KEY,
                "--max-connections", Integer.toString(GATE_MAX_CONNECTIONS)));
    if (!isProvided(spec)) {
      // saas-bench's per-tenant stress profile lives in its own table
      args.add("--forward-table");
    }
    if (spec != null && spec.gate != null) {
      // only when declared: a class without spec.gate keeps its pods' template (no roll)
      args.addAll(
          List.of(
              "--max-upstream-requests", Integer.toString(spec.gate.maxAppRequests),
              "--queue-timeout-ms", Integer.toString(spec.gate.queueTimeoutMs)));
    }
    return List.copyOf(args);
  }

  private static SloClassSpec.UnknownTenant unknownTenant(SloClassSpec spec) {
    return spec == null || spec.unknownTenant == null
        ? SloClassSpec.UnknownTenant.reject
        : spec.unknownTenant;
  }

  /** Command-line arguments of saas-bench behind the gate. */
  public static List<String> args() {
    return List.of(
        "--listen", "127.0.0.1:" + SAAS_BENCH_PORT,
        "--tenants", TABLE_DIR + "/" + TenantTable.FILE,
        "--admin-token-file", ADMIN_DIR + "/" + ADMIN_TOKEN_KEY,
        "--data-dir", DATA_DIR);
  }

  /**
   * Command-line arguments of the filler container: CPU soak until SIGTERM, one thread per core of
   * its limit.
   */
  public static List<String> fillerArgs() {
    return List.of("soak");
  }
}
