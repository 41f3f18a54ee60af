package dev.isolato.incontext;

import java.util.ArrayList;
import java.util.List;

/**
 * The open-loop referee's flags for one in-context calibration: the plan's steps against one pod's
 * gate, the class's tenants in turn, the run on stdout ({@code -out -}) with the generator's own
 * measurements ({@code -self-stats}).
 */
public final class GeneratorArgs {
  /** Unrecorded warm-up at the first rate (connections, the pod's caches). */
  static final String WARMUP = "3s";

  /** A request slower than this is an error: far beyond any latency target worth calibrating. */
  static final String TIMEOUT = "3s";

  private GeneratorArgs() {}

  /**
   * The flags of one run.
   *
   * @param tenantKey the class's tenant key: {@code header:<name>} sends the tenant in a header;
   *     otherwise the referee's default path carries it
   */
  public static List<String> of(
      String runId,
      String sloClass,
      String podIp,
      int port,
      List<String> tenants,
      String tenantKey,
      StepPlan plan) {
    if (tenants.isEmpty()) {
      throw new IllegalArgumentException("a calibration needs at least one tenant of the class");
    }
    String host = podIp.contains(":") ? "[" + podIp + "]" : podIp;
    List<String> a =
        new ArrayList<>(
            List.of(
                "-url",
                "http://" + host + ":" + port,
                "-class",
                sloClass,
                "-tenants",
                String.join(",", tenants),
                "-rates",
                plan.ratesFlag(),
                "-requests",
                Integer.toString(plan.requestsPerStep()),
                "-warmup",
                WARMUP,
                "-timeout",
                TIMEOUT,
                "-max-duration",
                plan.bound().toSeconds() + "s",
                "-run-id",
                runId,
                "-label",
                "in-context",
                "-out",
                "-",
                "-self-stats"));
    if (tenantKey != null && tenantKey.startsWith("header:")) {
      a.add("-tenant-header");
      a.add(tenantKey.substring("header:".length()));
    }
    return List.copyOf(a);
  }
}
