package dev.isolato.pipeline.run;

import dev.isolato.pipeline.ComponentSteps;
import dev.isolato.pipeline.DeploymentTracer;
import dev.isolato.pipeline.Milestone;
import dev.isolato.pipeline.Stage;
import dev.isolato.pipeline.Stage.Component;
import dev.isolato.pipeline.Timeline;
import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.Workload;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Isolato's pools traced from a moment on: every saas-bench Deployment Isolato creates or changes
 * after {@link #start} is traced with its namespace ({@link DeploymentTracer#inAnyNamespace}); what
 * existed before is the baseline. S1 counts from {@code start}, i.e. the API call that began the
 * path.
 */
public final class PoolTrace implements AutoCloseable {

  /** What a path did: its pools' timelines and the critical path's stages to the last Ready. */
  public record Result(
      List<Timeline> timelines,
      long readyPods,
      Map<Stage, Double> stages,
      double seconds,
      CpuMeter.Usage cpu,
      ComponentSteps steps) {}

  private final DeploymentTracer tracer;
  private final CpuMeter meter;
  private final CpuMeter.Mark mark;
  private final ComponentMeter components;
  private final Map<Component, String> componentMark;

  private PoolTrace(DeploymentTracer tracer, CpuMeter meter, ComponentMeter components) {
    this.tracer = tracer;
    this.meter = meter;
    this.components = components;
    this.componentMark = components.mark();
    this.mark = meter.mark();
    tracer.submitted();
  }

  public static PoolTrace start(
      KubernetesClient client, CpuMeter meter, ComponentMeter components) {
    return new PoolTrace(
        DeploymentTracer.inAnyNamespace(
                client,
                Workload.NAME,
                Map.of(PoolObjects.MANAGED_BY, PoolObjects.MANAGER),
                DeploymentTracer.monotonicMs())
            .start(),
        meter,
        components);
  }

  /** What the kubelets held when the trace started ({@link KubeletMeter#workingPods}). */
  public long workingPodsBefore() {
    return ComponentMeter.workingPods(componentMark);
  }

  /**
   * Waits until {@code pods} new pods are Ready or {@code timeout} passed (the caller saw them
   * Ready; the watch may be a few ms behind), then reads what was traced.
   */
  public Result await(long pods, Duration timeout) throws InterruptedException {
    List<Timeline> timelines =
        awaitReady(() -> new ArrayList<>(tracer.timelines().values()), pods, timeout);
    CpuMeter.Usage cpu = meter.since(mark);
    Map<Stage, Double> stages = Timeline.criticalPath(timelines, Milestone.POD_READY);
    double seconds = stages.values().stream().mapToDouble(Double::doubleValue).sum();
    return new Result(
        timelines, ready(timelines), stages, seconds, cpu, components.since(componentMark));
  }

  /**
   * Reads {@code timelines} until {@code pods} of their pods are Ready or {@code timeout} passed;
   * returns the last reading. The tracers' watches fill them in.
   */
  static List<Timeline> awaitReady(Supplier<List<Timeline>> timelines, long pods, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Timeline> now = timelines.get();
    while (ready(now) < pods && System.nanoTime() < deadline) {
      Thread.sleep(20);
      now = timelines.get();
    }
    return now;
  }

  /** Pods Ready across {@code timelines}. */
  static long ready(List<Timeline> timelines) {
    return timelines.stream().mapToLong(t -> t.podsAt(Milestone.POD_READY)).sum();
  }

  @Override
  public void close() {
    tracer.close();
  }
}
