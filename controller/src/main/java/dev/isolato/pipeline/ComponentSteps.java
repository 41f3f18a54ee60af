package dev.isolato.pipeline;

import dev.isolato.pipeline.Stage.Component;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Pure: what the components timed themselves over a run, from two scrapes of their {@code /metrics}
 * (by component; the kubelets' expositions concatenated): the kubelets' steps of S5 and S6 ({@link
 * KubeletSteps}), the control plane's steps of S1–S4 and S7 ({@link ControlPlaneSteps}), and each
 * client's wait for its own rate limiter, and the scheduler's attempts by result ({@link
 * ControlPlaneSteps#schedulingAttempts}, by result in alphabetical order). A component not scraped
 * both times contributes nothing, so every map may be empty.
 */
public record ComponentSteps(
    Map<Step, Measure> kubelet,
    Map<Step, Measure> controlPlane,
    Map<Component, Measure> throttled,
    Map<String, Long> schedulingAttempts) {

  public static final ComponentSteps NONE =
      new ComponentSteps(Map.of(), Map.of(), Map.of(), Map.of());

  public ComponentSteps {
    kubelet = Map.copyOf(kubelet);
    controlPlane = Map.copyOf(controlPlane);
    throttled = Map.copyOf(throttled);
    schedulingAttempts = Collections.unmodifiableMap(new TreeMap<>(schedulingAttempts));
  }

  /** Only the kubelets' steps were read. */
  public static ComponentSteps ofKubelet(Map<Step, Measure> kubelet) {
    return new ComponentSteps(kubelet, Map.of(), Map.of(), Map.of());
  }

  public static ComponentSteps between(
      Map<Component, String> before, Map<Component, String> after) {
    String kb = before.get(Component.KUBELET);
    String ka = after.get(Component.KUBELET);
    return new ComponentSteps(
        kb == null || ka == null ? Map.of() : KubeletSteps.between(kb, ka),
        ControlPlaneSteps.between(before, after),
        ControlPlaneSteps.throttled(before, after),
        ControlPlaneSteps.schedulingAttempts(before, after));
  }

  /**
   * Each step's time as the components timed it, summed over its operations, with a client's wait
   * for its token bucket counted in the write it throttles (the controller manager's pod creates,
   * the scheduler's bindings, the kubelet's status writes): the input of {@link
   * Bottleneck#rankSteps}. Steps no component timed are absent.
   */
  public Map<Step, Double> stepSeconds() {
    Map<Step, Double> out = new EnumMap<>(Step.class);
    kubelet.forEach((step, m) -> out.merge(step, m.seconds(), Double::sum));
    controlPlane.forEach((step, m) -> out.merge(step, m.seconds(), Double::sum));
    throttled.forEach(
        (c, m) -> {
          Step write = WRITES_THROTTLED.get(c);
          if (write != null) {
            out.merge(write, m.seconds(), Double::sum);
          }
        });
    return out;
  }

  /** The write each client's token bucket holds back (the API server's queues hold them all). */
  private static final Map<Component, Step> WRITES_THROTTLED =
      Map.of(
          Component.CONTROLLER_MANAGER, Step.S3_WRITE,
          Component.SCHEDULER, Step.S4_WRITE,
          Component.KUBELET, Step.S6_WRITE);

  /** Each read client's wait for its token bucket over the run, summed over its requests. */
  public Map<Component, Double> throttledSeconds() {
    Map<Component, Double> out = new EnumMap<>(Component.class);
    throttled.forEach((c, m) -> out.put(c, m.seconds()));
    return out;
  }
}
