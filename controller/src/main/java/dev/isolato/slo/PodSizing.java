package dev.isolato.slo;

import java.util.List;

/**
 * A class's candidate pod sizes (requests == limits) and what calibration measured at each.
 *
 * @param declaredCpuMillis the size the class declares, used while no candidate qualifies
 * @param candidates one entry per candidate size, declared size included
 * @param fitCpuMillis the size the class's fitted model was measured at; null when unknown (a fit
 *     stored before sizes were recorded counts as the declared size's)
 */
public record PodSizing(long declaredCpuMillis, List<SizeCutoff> candidates, Long fitCpuMillis) {

  public PodSizing {
    candidates = List.copyOf(candidates);
  }

  /**
   * One candidate size.
   *
   * @param perPodCutoffRps the newest per-pod cut-off calibrated at this size; null: not calibrated
   */
  public record SizeCutoff(long cpuMillis, Double perPodCutoffRps) {}
}
