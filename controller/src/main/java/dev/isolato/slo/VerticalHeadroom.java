package dev.isolato.slo;

/**
 * Vertical headroom (SAC'20, Finding 5): each class pod may use {@code headroomMillis} of CPU above
 * its request (limit = request + headroom), and a filler soaks the node's idle CPU meanwhile. The
 * filler requests the least CPU that still is a request, so under contention the kernel's CFS
 * shares (proportional to requests) give the class pods the CPU first, and its PriorityClass is
 * below every class's, so the scheduler preempts it first. Millicores.
 *
 * <p>The filler is not capacity: the planner's replicas and cut-offs count class pods only.
 *
 * @param headroomMillis CPU above the request of each class pod (0: requests == limits)
 * @param filler whether a filler runs (only with headroom: it soaks up to the headroom)
 */
public record VerticalHeadroom(long headroomMillis, boolean filler) {
  /** requests == limits (Guaranteed QoS), no filler: the default. */
  public static final VerticalHeadroom NONE = new VerticalHeadroom(0, false);

  /** The filler's CPU request: 10 cgroup shares against 1024 per requested core of the class. */
  public static final long FILLER_REQUEST_MILLIS = 10;

  /**
   * One filler pod per pool; it is replaced without surge (Recreate), so the quota needs one pod
   * more.
   */
  public static final int FILLER_PODS = 1;

  public VerticalHeadroom {
    if (headroomMillis < 0) {
      throw new IllegalArgumentException(
          "headroom must not be negative, was " + headroomMillis + "m");
    }
  }

  /** Whether a filler runs: asked for, and there is headroom for it to soak. */
  public boolean runsFiller() {
    return filler && headroomMillis > 0;
  }

  /** A class pod's CPU limit. */
  public long podLimitMillis(long podRequestMillis) {
    return podRequestMillis + headroomMillis;
  }

  /**
   * The filler's CPU limit: the headroom, so it never takes more than one class pod could burst
   * into.
   */
  public long fillerLimitMillis() {
    return headroomMillis;
  }

  /** The pool quota's pod count for {@code classPods} class pods (surge included by the caller). */
  public int quotaPods(int classPods) {
    return classPods + (runsFiller() ? FILLER_PODS : 0);
  }

  /** The pool quota's requests.cpu: the class pods' requests and the filler's. */
  public long quotaRequestsMillis(long podRequestMillis, int classPods) {
    return podRequestMillis * classPods + (runsFiller() ? FILLER_REQUEST_MILLIS * FILLER_PODS : 0);
  }

  /** The pool quota's limits.cpu: the class pods' limits and the filler's. */
  public long quotaLimitsMillis(long podRequestMillis, int classPods) {
    return podLimitMillis(podRequestMillis) * classPods
        + (runsFiller() ? fillerLimitMillis() * FILLER_PODS : 0);
  }

  /**
   * The share of a fully contended CPU the filler keeps next to class pods requesting {@code
   * classRequestMillis} in all (CFS shares are proportional to requests).
   */
  public static double contendedFillerShare(long classRequestMillis) {
    if (classRequestMillis < 0) {
      throw new IllegalArgumentException(
          "class requests must not be negative, was " + classRequestMillis + "m");
    }
    return (double) FILLER_REQUEST_MILLIS / (FILLER_REQUEST_MILLIS + classRequestMillis);
  }
}
