package dev.isolato.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.isolato.pipeline.Stage.Component;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ControlPlaneStepsTest {

  private static final String REQUEST = "apiserver_request_duration_seconds";

  private static final String APF = "apiserver_flowcontrol_request_wait_duration_seconds";

  /**
   * The API server after {@code pods} pod creates of 4 ms and as many bindings of 2 ms; each create
   * waited 1 ms for a seat of workload-high, and twice as many of the kubelet's requests 0.5 ms.
   */
  private static String apiServer(int pods) {
    String pod =
        "{component=\"apiserver\",dry_run=\"\",group=\"\",resource=\"pods\",scope=\"resource\",";
    return String.join(
        "\n",
        REQUEST + "_sum" + pod + "subresource=\"\",verb=\"POST\",version=\"v1\"} " + pods * 0.004,
        REQUEST + "_count" + pod + "subresource=\"\",verb=\"POST\",version=\"v1\"} " + pods,
        REQUEST
            + "_sum"
            + pod
            + "subresource=\"binding\",verb=\"POST\",version=\"v1\"} "
            + pods * 0.002,
        REQUEST + "_count" + pod + "subresource=\"binding\",verb=\"POST\",version=\"v1\"} " + pods,
        // a GET of pods is no write
        REQUEST + "_sum" + pod + "subresource=\"\",verb=\"GET\",version=\"v1\"} " + pods,
        REQUEST + "_count" + pod + "subresource=\"\",verb=\"GET\",version=\"v1\"} " + pods,
        APF
            + "_sum{execute=\"true\",flow_schema=\"kube-controller-manager\","
            + "priority_level=\"workload-high\"} "
            + pods * 0.001,
        APF
            + "_count{execute=\"true\",flow_schema=\"kube-controller-manager\","
            + "priority_level=\"workload-high\"} "
            + pods,
        APF
            + "_sum{execute=\"true\",flow_schema=\"system-nodes\",priority_level=\"system\"} "
            + pods * 0.001,
        APF
            + "_count{execute=\"true\",flow_schema=\"system-nodes\",priority_level=\"system\"} "
            + 2 * pods,
        "");
  }

  /**
   * The controller manager after {@code syncs} ReplicaSet syncs that each waited 0.1 s in the queue
   * and one Deployment sync, its client having waited {@code throttled} s for its token bucket.
   */
  private static String controllerManager(int syncs, double throttled) {
    return String.join(
        "\n",
        "workqueue_queue_duration_seconds_sum{name=\"replicaset\"} " + syncs * 0.1,
        "workqueue_queue_duration_seconds_count{name=\"replicaset\"} " + syncs,
        "workqueue_work_duration_seconds_sum{name=\"replicaset\"} " + syncs * 2.0,
        "workqueue_work_duration_seconds_count{name=\"replicaset\"} " + syncs,
        "workqueue_queue_duration_seconds_sum{name=\"deployment\"} " + (syncs > 0 ? 0.01 : 0),
        "workqueue_queue_duration_seconds_count{name=\"deployment\"} " + (syncs > 0 ? 1 : 0),
        "workqueue_work_duration_seconds_sum{name=\"deployment\"} " + (syncs > 0 ? 0.03 : 0),
        "workqueue_work_duration_seconds_count{name=\"deployment\"} " + (syncs > 0 ? 1 : 0),
        "rest_client_rate_limiter_duration_seconds_sum{host=\"10.250.0.1:6443\",verb=\"POST\"} "
            + throttled,
        "rest_client_rate_limiter_duration_seconds_count{host=\"10.250.0.1:6443\",verb=\"POST\"} "
            + 10 * syncs,
        "");
  }

  /**
   * The scheduler after {@code pods} pods that took 0.3 s from queue to bound, 0.05 s of it tried.
   */
  private static String scheduler(int pods) {
    return String.join(
        "\n",
        "scheduler_pod_scheduling_sli_duration_seconds_sum{attempts=\"1\"} " + pods * 0.3,
        "scheduler_pod_scheduling_sli_duration_seconds_count{attempts=\"1\"} " + pods,
        "scheduler_scheduling_attempt_duration_seconds_sum{profile=\"default-scheduler\","
            + "result=\"scheduled\"} "
            + pods * 0.05,
        "scheduler_scheduling_attempt_duration_seconds_count{profile=\"default-scheduler\","
            + "result=\"scheduled\"} "
            + pods,
        "scheduler_scheduling_algorithm_duration_seconds_sum " + pods * 0.01,
        "scheduler_scheduling_algorithm_duration_seconds_count " + pods,
        // every pod bound at its first attempt, and one in ten failed once before
        "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"scheduled\"} "
            + pods,
        "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"error\"} "
            + pods / 10,
        "");
  }

  private static Map<Component, String> scrape(int pods, int syncs, double throttled) {
    return Map.of(
        Component.APISERVER, apiServer(pods),
        Component.CONTROLLER_MANAGER, controllerManager(syncs, throttled),
        Component.SCHEDULER, scheduler(pods));
  }

  @Test
  void eachStepIsItsComponentsHistogramGrowth() {
    // 100 pods created in 3 ReplicaSet syncs, the client throttled for 4 s
    Map<Step, Measure> s = ControlPlaneSteps.between(scrape(5, 1, 0.5), scrape(105, 4, 4.5));
    assertThat(s.get(Step.S3_WRITE).count()).isEqualTo(100);
    assertThat(s.get(Step.S3_WRITE).mean()).isCloseTo(0.004, within(1e-9));
    assertThat(s.get(Step.S4_WRITE).mean()).isCloseTo(0.002, within(1e-9));
    // a sync's queue wait, not its work (which holds the creates: S3 T_w)
    assertThat(s.get(Step.S3_CREATE_POD_OBJECT).count()).isEqualTo(3);
    assertThat(s.get(Step.S3_CREATE_POD_OBJECT).seconds()).isCloseTo(0.3, within(1e-9));
    // queue to bound minus the attempts: the wait in the scheduler's queue
    assertThat(s.get(Step.S4_READ).count()).isEqualTo(100);
    assertThat(s.get(Step.S4_READ).mean()).isCloseTo(0.25, within(1e-9));
    assertThat(s.get(Step.S4_SCHEDULE).mean()).isCloseTo(0.01, within(1e-9));
    // the Deployment's wait and sync, counted once
    assertThat(s.get(Step.S2_READ).count()).isZero();
    // no Deployment was written through the API server in these scrapes
    assertThat(s.get(Step.S1_WRITE)).isEqualTo(Measure.NONE);
    assertThat(s).doesNotContainKeys(Step.S5_SANDBOX, Step.S6_START_CONTAINER);
  }

  @Test
  void aQueueItemsWaitAndWorkAreOneOperation() {
    Map<Step, Measure> s = ControlPlaneSteps.between(scrape(0, 0, 0), scrape(1, 1, 0));
    assertThat(s.get(Step.S2_READ).count()).isEqualTo(1);
    assertThat(s.get(Step.S2_READ).seconds()).isCloseTo(0.04, within(1e-9));
  }

  @Test
  void aClientsThrottlingIsItsRateLimitersWait() {
    Map<Component, Measure> t = ControlPlaneSteps.throttled(scrape(5, 1, 0.5), scrape(105, 4, 4.5));
    assertThat(t.get(Component.CONTROLLER_MANAGER).seconds()).isCloseTo(4.0, within(1e-9));
    assertThat(t.get(Component.CONTROLLER_MANAGER).count()).isEqualTo(30);
    // the scheduler's exposition has no rate limiter: it waited for nothing
    assertThat(t.get(Component.SCHEDULER)).isEqualTo(Measure.NONE);
    // not scraped: not read
    assertThat(t).doesNotContainKey(Component.KUBELET);
  }

  @Test
  void theApiServersThrottlingIsItsPriorityAndFairnessQueuesWait() {
    Map<Component, Measure> t = ControlPlaneSteps.throttled(scrape(5, 1, 0.5), scrape(105, 4, 4.5));
    // every priority level's queues: 100 creates × 1 ms + 200 kubelet requests × 0.5 ms
    assertThat(t.get(Component.APISERVER).seconds()).isCloseTo(0.2, within(1e-9));
    assertThat(t.get(Component.APISERVER).count()).isEqualTo(300);
  }

  @Test
  void anApiServerWithoutPriorityAndFairnessIsNotRead() {
    Map<Component, String> before = Map.of(Component.APISERVER, apiServer(5).replace(APF, "x"));
    Map<Component, String> after = Map.of(Component.APISERVER, apiServer(105).replace(APF, "x"));
    assertThat(ControlPlaneSteps.throttled(before, after)).isEmpty();
  }

  @Test
  void aClientsBucketWaitCountsInTheWriteItHolds() {
    ComponentSteps steps = ComponentSteps.between(scrape(5, 1, 0.5), scrape(105, 4, 4.5));
    // 100 creates × 4 ms in the API server + 4 s in the controller manager's bucket
    assertThat(steps.stepSeconds().get(Step.S3_WRITE)).isCloseTo(0.4 + 4, within(1e-9));
    assertThat(steps.stepSeconds().get(Step.S4_READ)).isCloseTo(25, within(1e-9));
    assertThat(steps.stepSeconds()).doesNotContainKey(Step.S5_SANDBOX);
  }

  @Test
  void theSchedulersAttemptsAreCountedByResult() {
    assertThat(ControlPlaneSteps.schedulingAttempts(scrape(5, 1, 0.5), scrape(105, 4, 4.5)))
        .containsExactly(
            Map.entry("scheduled", 100L), Map.entry("unschedulable", 0L), Map.entry("error", 10L));
    assertThat(
            ControlPlaneSteps.schedulingAttempts(
                Map.of(Component.APISERVER, apiServer(0)), scrape(10, 1, 0)))
        .isEmpty();
  }

  @Test
  void aComponentNotScrapedBothTimesContributesNothing() {
    Map<Component, String> before = Map.of(Component.APISERVER, apiServer(0));
    Map<Step, Measure> s = ControlPlaneSteps.between(before, scrape(10, 1, 0));
    assertThat(s).containsOnlyKeys(Step.S1_WRITE, Step.S3_WRITE, Step.S4_WRITE);
    assertThat(ComponentSteps.between(before, scrape(10, 1, 0)).throttled())
        .containsOnlyKeys(Component.APISERVER);
  }

  @Test
  void aRestartedComponentReadsAsNoOperations() {
    Map<Step, Measure> s = ControlPlaneSteps.between(scrape(105, 4, 4.5), scrape(5, 1, 0.5));
    assertThat(s.get(Step.S3_WRITE)).isEqualTo(Measure.NONE);
    assertThat(s.get(Step.S4_READ)).isEqualTo(Measure.NONE);
  }
}
