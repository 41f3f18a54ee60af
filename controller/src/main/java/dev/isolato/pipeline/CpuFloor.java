package dev.isolato.pipeline;

import java.util.Optional;

/**
 * The shortest a run could be if the CPU work it caused stayed the same: a bound that no setting
 * which only reorders or unblocks work can beat, whatever the stages' model predicts. It tells a
 * CPU-bound host apart from a slow pipeline: when the floor is close to the measurement, only a
 * change that cuts CPU work (fewer processes started, fewer writes) can make the run much shorter
 * (docs/pipeline.md "The CPU floor").
 *
 * <p>The work is what the cluster's processes and the deployment's client used above their rate at
 * idle; it is spread over the cores they leave at idle. Other work on the host (the tracer, other
 * tenants) is assumed away, so the floor is a lower bound and {@link #maxReduction} an upper one.
 *
 * @param workCoreSeconds CPU seconds the run caused
 * @param floorSeconds that work on the cores not used at idle, all of them busy all the time
 * @param maxReduction 1 − floor / measured: the largest reduction a change that leaves the work
 *     alone can bring
 */
public record CpuFloor(double workCoreSeconds, double floorSeconds, double maxReduction) {

  /**
   * The floor of one run, or empty when nothing was measured or idle left no core.
   *
   * @param seconds the run's measured duration
   * @param busy the planes' and the client's CPU during the run, a fraction of all {@code cores}
   * @param idleBusy the same with nothing deployed
   */
  public static Optional<CpuFloor> of(double seconds, double busy, double idleBusy, int cores) {
    if (!(seconds > 0 && busy > 0 && idleBusy >= 0 && idleBusy < 1 && cores > 0)) {
      return Optional.empty();
    }
    double work = Math.max(0, busy - idleBusy) * cores * seconds;
    double floor = work / ((1 - idleBusy) * cores);
    return Optional.of(new CpuFloor(work, floor, 1 - floor / seconds));
  }
}
