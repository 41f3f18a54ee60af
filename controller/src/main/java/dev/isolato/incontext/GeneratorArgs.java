package dev.isolato.incontext;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.calibration.RequestMix;
import java.util.ArrayList;
import java.util.List;

/**
 * The open-loop referee's flags for one in-context calibration: the plan's steps against one pod's
 * gate, the class's tenants in turn sending its request mix, the run on stdout ({@code -out -})
 * with the generator's own measurements ({@code -self-stats}).
 */
public final class GeneratorArgs {
  /** Unrecorded warm-up at the first rate (connections, the pod's caches). */
  static final String WARMUP = "3s";

  /** A request slower than this is an error: far beyond any latency target worth calibrating. */
  static final String TIMEOUT = "3s";

  private GeneratorArgs() {}

  private static String json(RequestMix requests) {
    try {
      return JSON.writeValueAsString(requests.exported());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e); // maps of strings and numbers
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The flags of one run.
   *
   * @param firstIndex the index of the first step (a second pass continues the first's)
   * @param requests the class's request mix ({@code -request}: the referee reads what a plan
   *     exports, cycle included, and derives nothing)
   */
  public static List<String> of(
      String runId,
      String sloClass,
      String podIp,
      int port,
      List<String> tenants,
      RequestMix requests,
      StepPlan plan,
      int firstIndex) {
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
                "-first-index",
                Integer.toString(firstIndex),
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
                "-self-stats",
                "-request",
                json(requests)));
    return List.copyOf(a);
  }
}
