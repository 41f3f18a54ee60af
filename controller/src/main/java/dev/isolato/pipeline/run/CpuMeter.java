package dev.isolato.pipeline.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * CPU used between two marks by localkube's control plane (etcd, kube-apiserver,
 * kube-controller-manager, kube-scheduler) and by its node agents (kubelet, containerd, kube-proxy,
 * and kwok when it plays the kubelet of fake nodes), from {@code /proc/<pid>/stat} of the PIDs in
 * {@code $LOCALKUBE_HOME/pids}, and by the whole host ({@code /proc/stat}). Utilisation is a
 * fraction of all the host's cores. The node figure is a lower bound: containerd's shims and runc
 * are not children of the PIDs localkube records. On a shared cluster there is nothing to read:
 * {@link Usage#measured()} is false.
 */
public final class CpuMeter {

  static final List<String> CONTROL_PLANE =
      List.of("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler");
  static final List<String> NODE = List.of("kubelet", "containerd", "kube-proxy", "kwok");

  /** USER_HZ: the unit of /proc's CPU times on Linux. */
  static final double TICKS_PER_SECOND = 100;

  private final Optional<Path> pids;
  private final int cores = Runtime.getRuntime().availableProcessors();

  private CpuMeter(Optional<Path> pids) {
    this.pids = pids;
  }

  /** For localkube: {@code home} is its state directory ($LOCALKUBE_HOME). */
  public static CpuMeter localkube(Path home) {
    return new CpuMeter(Optional.of(home.resolve("pids")));
  }

  public static CpuMeter unavailable() {
    return new CpuMeter(Optional.empty());
  }

  /** Utilisation of the run: 0–1 of all cores; zeros when not measured. */
  public record Usage(boolean measured, double controlPlane, double node, double host, int cores) {}

  public record Mark(
      long nanos, long controlPlaneTicks, long nodeTicks, long hostBusy, long hostTotal) {}

  public Mark mark() {
    long[] host = hostTicks();
    return new Mark(System.nanoTime(), ticks(CONTROL_PLANE), ticks(NODE), host[0], host[1]);
  }

  public Usage since(Mark start) {
    if (pids.isEmpty()) {
      return new Usage(false, 0, 0, 0, cores);
    }
    Mark end = mark();
    double seconds = (end.nanos() - start.nanos()) / 1e9 * cores;
    long hostTotal = end.hostTotal() - start.hostTotal();
    return new Usage(
        true,
        share(end.controlPlaneTicks() - start.controlPlaneTicks(), seconds),
        share(end.nodeTicks() - start.nodeTicks(), seconds),
        hostTotal <= 0 ? 0 : (double) (end.hostBusy() - start.hostBusy()) / hostTotal,
        cores);
  }

  private static double share(long ticks, double coreSeconds) {
    return coreSeconds <= 0 ? 0 : Math.max(0, ticks / TICKS_PER_SECOND / coreSeconds);
  }

  private long ticks(List<String> components) {
    if (pids.isEmpty()) {
      return 0;
    }
    long sum = 0;
    for (String c : components) {
      try {
        String pid = Files.readString(pids.get().resolve(c + ".pid")).strip();
        sum += processTicks(Files.readString(Path.of("/proc", pid, "stat")));
      } catch (IOException | RuntimeException e) {
        // not running (yet): counts as 0; a restarted component starts again from 0, see docs
      }
    }
    return sum;
  }

  /**
   * utime + stime of a /proc/<pid>/stat line (fields 14 and 15; the name in parentheses may hold
   * spaces).
   */
  static long processTicks(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ", -1);
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /** busy and total jiffies of the "cpu" line of /proc/stat; zeros when unreadable. */
  private static long[] hostTicks() {
    try {
      String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+", -1);
      Map<Integer, Long> v = new HashMap<>();
      long total = 0;
      for (int i = 1; i < f.length; i++) {
        v.put(i, Long.parseLong(f[i]));
        total += v.get(i);
      }
      long idle = v.getOrDefault(4, 0L) + v.getOrDefault(5, 0L);
      return new long[] {total - idle, total};
    } catch (IOException | RuntimeException e) {
      return new long[] {0, 0};
    }
  }
}
