package dev.isolato.scaling;

import dev.isolato.tenancy.CalibrationStatusMapper;
import dev.isolato.tenancy.SloClass;

/**
 * Where each pod of a class should be held: the per-pod cut-off (measured by the last calibration,
 * else declared) times the class's pivot. The one definition the KEDA trigger, the direct path and
 * the Prometheus rule {@code isolato:class_scale_threshold_rps} share.
 */
public final class ScaleThreshold {
  private ScaleThreshold() {}

  /** Requests per second per pod above which the class needs another pod. */
  public static double perPodRps(SloClass cls) {
    return CalibrationStatusMapper.perPodCutoff(cls) * cls.getSpec().pivotPercent / 100.0;
  }

  /** Pods needed for {@code rateRps} at {@code perPodRps} each, within [1, max]. */
  public static int podsFor(double rateRps, double perPodRps, int max) {
    if (!(perPodRps > 0) || !Double.isFinite(rateRps) || rateRps <= 0) {
      return 1;
    }
    long need = (long) Math.ceil(rateRps / perPodRps - 1e-9);
    return (int) Math.max(1, Math.min(max, need));
  }
}
