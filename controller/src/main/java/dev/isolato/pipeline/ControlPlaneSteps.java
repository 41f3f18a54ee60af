package dev.isolato.pipeline;

import dev.isolato.metrics.Exposition;
import dev.isolato.pipeline.Stage.Component;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pure: the steps of S1–S4 and S7 as the control plane's components time them, from two scrapes of
 * each one's {@code /metrics} around a run, and how long requests waited for a limit: each
 * component's API client for its own rate limiter (its kube-api-qps / kube-api-burst token bucket),
 * and the API server's requests in its API Priority and Fairness queues (its in-flight limits). The
 * tracer resolves stages; these split them without patched binaries:
 *
 * <ul>
 *   <li>S1 T_w: the API server's writes of Deployments (create, update, patch, apply);
 *   <li>S2 T_r: a Deployment's time in the deployment controller's work queue and its sync (reading
 *       it, writing its ReplicaSet);
 *   <li>S3 T_cpo: a ReplicaSet's wait in the replicaset controller's queue for a sync worker
 *       (concurrent-replicaset-syncs); the sync's own pod creates are S3 T_w, and their wait for
 *       the token bucket is the controller manager's {@link #throttled} time;
 *   <li>S3 T_w: the API server's pod creates;
 *   <li>S4 T_r: the scheduler's queue: its scheduling SLI (queue entry to scheduled) minus the
 *       attempts;
 *   <li>S4 T_sc: the scheduling algorithm (filter and score);
 *   <li>S4 T_w: the API server's binding creates;
 *   <li>S7 T_ep: an EndpointSlice sync, queue and work.
 * </ul>
 *
 * Each is a {@link Measure} summed over every operation of the run, so overlapping operations add
 * up: compare steps by their means, or by their sums against the run's length only as an upper
 * bound of what they can take off it.
 */
public final class ControlPlaneSteps {

  /**
   * One histogram a step is read from: with {@code counts}, its operations are the step's (a queue
   * item's wait and its work are one operation, counted once); with {@code subtract}, its time is
   * taken off the step's (the scheduler's attempts from its SLI).
   */
  private record Source(
      Component component,
      String histogram,
      Map<String, String> labels,
      boolean counts,
      boolean subtract) {}

  private static Source counted(Component c, String histogram, Map<String, String> labels) {
    return new Source(c, histogram, labels, true, false);
  }

  private static Source added(Component c, String histogram, Map<String, String> labels) {
    return new Source(c, histogram, labels, false, false);
  }

  private static Source subtracted(Component c, String histogram, Map<String, String> labels) {
    return new Source(c, histogram, labels, false, true);
  }

  private static final String REQUEST = "apiserver_request_duration_seconds";
  private static final String QUEUE = "workqueue_queue_duration_seconds";
  private static final String WORK = "workqueue_work_duration_seconds";
  private static final String RATE_LIMITER = "rest_client_rate_limiter_duration_seconds";
  private static final String ATTEMPTS = "scheduler_schedule_attempts_total";

  /**
   * A request's wait in its priority level's queue for a seat; the seats are the server's in-flight
   * limits (max-requests-inflight + max-mutating-requests-inflight) shared out by the levels'
   * concurrency shares. Exempt requests (system:masters) never queue. Requests rejected after
   * waiting count too ({@code execute="false"}).
   */
  private static final String PRIORITY_AND_FAIRNESS =
      "apiserver_flowcontrol_request_wait_duration_seconds";

  private static Map<String, String> write(String verb, String resource, String subresource) {
    return Map.of("verb", verb, "resource", resource, "subresource", subresource);
  }

  private static List<Source> queueAndWork(String queue) {
    return List.of(
        counted(Component.CONTROLLER_MANAGER, WORK, Map.of("name", queue)),
        added(Component.CONTROLLER_MANAGER, QUEUE, Map.of("name", queue)));
  }

  private static final Map<Step, List<Source>> SOURCES =
      Map.of(
          Step.S1_WRITE,
          List.of("POST", "PUT", "PATCH", "APPLY").stream()
              .map(v -> counted(Component.APISERVER, REQUEST, write(v, "deployments", "")))
              .toList(),
          Step.S2_READ,
          queueAndWork("deployment"),
          Step.S3_CREATE_POD_OBJECT,
          List.of(counted(Component.CONTROLLER_MANAGER, QUEUE, Map.of("name", "replicaset"))),
          Step.S3_WRITE,
          List.of(counted(Component.APISERVER, REQUEST, write("POST", "pods", ""))),
          Step.S4_READ,
          List.of(
              counted(
                  Component.SCHEDULER, "scheduler_pod_scheduling_sli_duration_seconds", Map.of()),
              subtracted(
                  Component.SCHEDULER, "scheduler_scheduling_attempt_duration_seconds", Map.of())),
          Step.S4_SCHEDULE,
          List.of(
              counted(
                  Component.SCHEDULER,
                  "scheduler_scheduling_algorithm_duration_seconds",
                  Map.of())),
          Step.S4_WRITE,
          List.of(counted(Component.APISERVER, REQUEST, write("POST", "pods", "binding"))),
          Step.S7_ENDPOINTS,
          queueAndWork("endpoint_slice"));

  /** Components whose API client's token bucket is read ({@link #throttled}). */
  public static final List<Component> CLIENTS =
      List.of(Component.CONTROLLER_MANAGER, Component.SCHEDULER, Component.KUBELET);

  private ControlPlaneSteps() {}

  /**
   * The steps between two scrapes of the same components ({@code before}, {@code after}: each
   * component's exposition). A step whose component was not scraped both times is absent.
   */
  public static Map<Step, Measure> between(
      Map<Component, String> before, Map<Component, String> after) {
    Map<Step, Measure> out = new EnumMap<>(Step.class);
    SOURCES.forEach(
        (step, sources) -> {
          long count = 0;
          double seconds = 0;
          for (Source s : sources) {
            String b = before.get(s.component());
            String a = after.get(s.component());
            if (b == null || a == null) {
              return;
            }
            Measure m = Measure.between(b, a, s.histogram(), s.labels());
            count += s.counts() ? m.count() : 0;
            seconds += s.subtract() ? -m.seconds() : m.seconds();
          }
          out.put(step, new Measure(count, Math.max(0, seconds)));
        });
    return out;
  }

  /** The results the scheduler counts its attempts by (a stable metric since 1.19). */
  public static final List<String> ATTEMPT_RESULTS = List.of("scheduled", "unschedulable", "error");

  /**
   * The scheduler's scheduling attempts between the two scrapes by result ({@link
   * #ATTEMPT_RESULTS}): more attempts than pods means pods went back to its queue, and the result
   * says why (a node rejected them, or the scheduler failed, e.g. a binding it could not write).
   * Empty when the scheduler was not scraped both times.
   */
  public static Map<String, Long> schedulingAttempts(
      Map<Component, String> before, Map<Component, String> after) {
    String b = before.get(Component.SCHEDULER);
    String a = after.get(Component.SCHEDULER);
    Map<String, Long> out = new LinkedHashMap<>();
    if (b != null && a != null) {
      for (String result : ATTEMPT_RESULTS) {
        Map<String, String> labels = Map.of("result", result);
        double n = Exposition.sum(a, ATTEMPTS, labels) - Exposition.sum(b, ATTEMPTS, labels);
        out.put(result, Math.max(0, Math.round(n)));
      }
    }
    return out;
  }

  /**
   * How long requests waited for a limit between the two scrapes, summed over them: each scraped
   * client of {@link #CLIENTS} for its rate limiter (every request passes it, so the count is its
   * requests), and under {@link Component#APISERVER} the server's requests in its priority and
   * fairness queues (the count is the requests that went through them). The API server is absent
   * when it was not scraped both times or does not run API Priority and Fairness (then its
   * in-flight limits are plain counters, whose waits no histogram records).
   */
  public static Map<Component, Measure> throttled(
      Map<Component, String> before, Map<Component, String> after) {
    Map<Component, Measure> out = new EnumMap<>(Component.class);
    for (Component c : CLIENTS) {
      if (before.containsKey(c) && after.containsKey(c)) {
        out.put(c, Measure.between(before.get(c), after.get(c), RATE_LIMITER, Map.of()));
      }
    }
    String b = before.get(Component.APISERVER);
    String a = after.get(Component.APISERVER);
    if (b != null && a != null && Exposition.sum(a, PRIORITY_AND_FAIRNESS + "_count") > 0) {
      out.put(Component.APISERVER, Measure.between(b, a, PRIORITY_AND_FAIRNESS, Map.of()));
    }
    return out;
  }
}
