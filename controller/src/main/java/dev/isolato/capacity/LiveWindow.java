package dev.isolato.capacity;

import java.time.Instant;
import java.util.List;

/**
 * One pool over one verification window, as measured from live traffic: how many pods served, the
 * requests each answered per second on average, the latency at the class's percentile over the
 * whole pool (what its tenants see), and each pod's own (rate, latency) point.
 *
 * @param latencyMs NaN when the pool answered nothing in the window (no percentile exists)
 * @param podPoints each pod's point; empty when only the pool's is known (then it stands for them)
 * @param steady whether the pool's rate held within {@link #MAX_RATE_CHANGE} across the window:
 *     only then is (rate, latency) a point of the steady-state curve the model describes
 * @param peakPerPodRps the highest short-range rate per pod in the window (NaN: not known)
 */
public record LiveWindow(
    Instant at,
    int pods,
    double perPodRps,
    double latencyMs,
    List<PodPoint> podPoints,
    boolean steady,
    double peakPerPodRps) {

  /**
   * The largest change of the pool's rate within a window that still makes it a point of the curve.
   * A window that spans a load step's end (a ramp's step, then a pause) averages the rate over both
   * while its latency percentile comes from the overloaded part: taken as a point, it says the pods
   * failed at a rate they never ran at (an experiment's ramp read as drift on make run's httpbin
   * class, 2026-11-29: failing at 56 req/s per pod, cut-off 137–146).
   */
  public static final double MAX_RATE_CHANGE = 0.2;

  /** Steady when the lowest short-range rate in the window is within the change of the highest. */
  public static boolean steadyRate(double lowestRps, double highestRps) {
    return !(highestRps > 0) || lowestRps >= highestRps * (1 - MAX_RATE_CHANGE);
  }

  /** One pod's rate and latency in the window (latency NaN: it answered nothing). */
  public record PodPoint(double rps, double latencyMs) {
    boolean active() {
      return rps > 0 && Double.isFinite(latencyMs);
    }
  }

  public LiveWindow {
    podPoints = List.copyOf(podPoints);
  }

  /** A steady window. */
  public LiveWindow(
      Instant at, int pods, double perPodRps, double latencyMs, List<PodPoint> podPoints) {
    this(at, pods, perPodRps, latencyMs, podPoints, true, Double.NaN);
  }

  /** A steady window known only for the pool as a whole. */
  public LiveWindow(Instant at, int pods, double perPodRps, double latencyMs) {
    this(at, pods, perPodRps, latencyMs, List.of());
  }

  /** Whether the window carries evidence: traffic was served and a latency measured. */
  public boolean active() {
    return pods > 0 && perPodRps > 0 && Double.isFinite(latencyMs);
  }

  /**
   * The points of an unsteady window over {@code targetMs}: the pods failed while they ran at up to
   * its peak, so the failure is placed there, not at the average (which mixes in the pause or the
   * ramp-up around it); one that held says nothing certain and gives none.
   */
  public List<LiveWindow> unsteadyPoints(double targetMs) {
    return active() && latencyMs > targetMs && peakPerPodRps > 0
        ? List.of(new LiveWindow(at, 1, Math.max(perPodRps, peakPerPodRps), latencyMs))
        : List.of();
  }

  /**
   * The points that say what one pod does at a rate: each active pod's, else the pool's average. A
   * pool whose load is uneven (connections pinned to one pod) fails on its hot pod: the average
   * would blame every pod for it.
   */
  public List<LiveWindow> perPod() {
    List<LiveWindow> points =
        podPoints.stream()
            .filter(PodPoint::active)
            .map(p -> new LiveWindow(at, 1, p.rps(), p.latencyMs()))
            .toList();
    return points.isEmpty() && active()
        ? List.of(new LiveWindow(at, 1, perPodRps, latencyMs))
        : points;
  }
}
