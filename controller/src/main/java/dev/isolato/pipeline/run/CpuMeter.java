package dev.isolato.pipeline.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * CPU used between two marks by localkube's control plane (etcd, kube-apiserver,
 * kube-controller-manager, kube-scheduler), by its node (kubelet, containerd, kube-proxy, kwok when
 * it plays the kubelet of fake nodes, and everything they start) and by the whole host ({@code
 * /proc/stat}). Utilisation is a fraction of all the host's cores.
 *
 * <p>localkube starts each plane's processes in a cpuacct cgroup of its own (cgroup v1,
 * localkube/lib/cgroup.sh); a plane whose recorded PIDs ({@code $LOCALKUBE_HOME/pids}) all sit in
 * one such cgroup is read from its {@code cpuacct.usage}, which counts every descendant, exited or
 * re-parented: containerd's shims, runc, the CNI plugins. The node adds the kubelet's {@code
 * kubepods} cgroup (the pods' own processes: runc init, the containers). Otherwise (an older
 * localkube, no cpuacct hierarchy) the plane falls back to {@code /proc/<pid>/stat} of its PIDs, a
 * lower bound, and {@link Usage#cgroups()} is false. On a shared cluster there is nothing to read:
 * {@link Usage#measured()} is false.
 *
 * <p>A deployment's client, when it is a process on this host ({@link #withClient}: Isolato's
 * controller on its own paths), is read from its {@code /proc/<pid>/stat}: all its threads.
 */
public final class CpuMeter {

  static final List<String> CONTROL_PLANE =
      List.of("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler");
  static final List<String> NODE = List.of("kubelet", "containerd", "kube-proxy", "kwok");

  /** The kubelet's pod cgroups (cgroupfs driver, cgroupRoot "/", as localkube runs it). */
  static final String KUBEPODS = "kubepods";

  /** USER_HZ: the unit of /proc's CPU times on Linux. */
  static final double TICKS_PER_SECOND = 100;

  private final Optional<Path> pids;
  private final OptionalLong clientPid;
  private final int cores = Runtime.getRuntime().availableProcessors();

  private CpuMeter(Optional<Path> pids, OptionalLong clientPid) {
    this.pids = pids;
    this.clientPid = clientPid;
  }

  /** This meter, also reading the deployment's client: the process {@code pid} on this host. */
  public CpuMeter withClient(long pid) {
    return new CpuMeter(pids, OptionalLong.of(pid));
  }

  /** For localkube: {@code home} is its state directory ($LOCALKUBE_HOME). */
  public static CpuMeter localkube(Path home) {
    return pidsIn(home.resolve("pids"));
  }

  /** Reads the components whose PIDs are in {@code <dir>/<component>.pid}. */
  static CpuMeter pidsIn(Path dir) {
    return new CpuMeter(Optional.of(dir), OptionalLong.empty());
  }

  public static CpuMeter unavailable() {
    return new CpuMeter(Optional.empty(), OptionalLong.empty());
  }

  /**
   * Utilisation of the run: 0–1 of all cores; zeros when not measured.
   *
   * @param client the deployment's client ({@link #withClient}); 0 when not read
   * @param cgroups both planes were read from their cgroups at both marks (children included);
   *     false: from the PIDs, a lower bound
   */
  public record Usage(
      boolean measured,
      double controlPlane,
      double node,
      double client,
      double host,
      int cores,
      boolean cgroups) {

    /** Not measured: a shared cluster, or a benchmark that does not read CPU. */
    public static Usage none() {
      return new Usage(false, 0, 0, 0, 0, Runtime.getRuntime().availableProcessors(), false);
    }

    /** The planes' and the client's CPU together: what a deployment's own work shows in. */
    public double planesAndClient() {
      return controlPlane + node + client;
    }
  }

  /** CPU nanoseconds of each plane and host jiffies at one moment. */
  public record Mark(
      long nanos,
      long controlPlaneNanos,
      long nodeNanos,
      long clientNanos,
      boolean cgroups,
      long hostBusy,
      long hostTotal) {}

  public Mark mark() {
    long[] host = hostTicks();
    Optional<Path> cpuacct = cpuacctRoot();
    Plane cp = plane(CONTROL_PLANE, cpuacct, List.of());
    Plane node = plane(NODE, cpuacct, List.of(KUBEPODS));
    return new Mark(
        System.nanoTime(),
        cp.nanos(),
        node.nanos(),
        clientPid.isPresent() ? processNanos(String.valueOf(clientPid.getAsLong())) : 0,
        cp.cgroup() && node.cgroup(),
        host[0],
        host[1]);
  }

  /**
   * Utilisation over {@code window} with nothing deployed: the rate a run's own work is counted
   * above ({@link dev.isolato.pipeline.CpuFloor}). A fixed measuring window, not a wait for
   * anything.
   */
  public Usage idle(Duration window) throws InterruptedException {
    if (pids.isEmpty()) {
      return Usage.none();
    }
    Mark start = mark();
    Thread.sleep(window.toMillis());
    return since(start);
  }

  public Usage since(Mark start) {
    if (pids.isEmpty()) {
      return Usage.none();
    }
    Mark end = mark();
    double coreNanos = (end.nanos() - start.nanos()) * (double) cores;
    long hostTotal = end.hostTotal() - start.hostTotal();
    return new Usage(
        true,
        share(end.controlPlaneNanos() - start.controlPlaneNanos(), coreNanos),
        share(end.nodeNanos() - start.nodeNanos(), coreNanos),
        share(end.clientNanos() - start.clientNanos(), coreNanos),
        hostTotal <= 0 ? 0 : (double) (end.hostBusy() - start.hostBusy()) / hostTotal,
        cores,
        start.cgroups() && end.cgroups());
  }

  private static double share(long nanos, double coreNanos) {
    return coreNanos <= 0 ? 0 : Math.max(0, nanos / coreNanos);
  }

  /** A plane's CPU so far, and whether it came from its cgroup. */
  private record Plane(long nanos, boolean cgroup) {}

  /**
   * The plane's cgroup (plus {@code extra} cgroups beside it, e.g. kubepods) when all its running
   * components share one that is not the hierarchy's root; else the sum of its PIDs' own times.
   */
  private Plane plane(List<String> components, Optional<Path> cpuacct, List<String> extra) {
    if (pids.isEmpty()) {
      return new Plane(0, false);
    }
    List<String> running = new ArrayList<>();
    for (String c : components) {
      read(pids.get().resolve(c + ".pid")).map(String::strip).ifPresent(running::add);
    }
    if (running.isEmpty()) {
      return new Plane(0, true); // nothing runs, nothing is missed
    }
    Set<String> groups = new HashSet<>();
    long nanos = 0;
    for (String pid : running) {
      Optional<String> cgroup = read(Path.of("/proc", pid, "cgroup"));
      if (cgroup.isEmpty()) {
        continue; // exited since its PID was written: counts as 0
      }
      nanos += processNanos(pid);
      groups.add(cgroup.flatMap(CpuMeter::cpuacctPath).orElse("/"));
    }
    if (cpuacct.isPresent() && groups.size() == 1 && !groups.contains("/")) {
      Optional<Long> own = usage(cpuacct.get().resolve(groups.iterator().next().substring(1)));
      if (own.isPresent()) {
        long sum = own.get();
        for (String e : extra) {
          sum += usage(cpuacct.get().resolve(e)).orElse(0L);
        }
        return new Plane(sum, true);
      }
    }
    return new Plane(nanos, false);
  }

  /** A process's own CPU (all its threads) so far; 0 once it has exited. */
  private static long processNanos(String pid) {
    return read(Path.of("/proc", pid, "stat"))
        .map(stat -> Math.round(processTicks(stat) / TICKS_PER_SECOND * 1e9))
        .orElse(0L);
  }

  private static Optional<Long> usage(Path cgroup) {
    return read(cgroup.resolve("cpuacct.usage")).map(s -> Long.parseLong(s.strip()));
  }

  private static Optional<String> read(Path p) {
    try {
      return Optional.of(Files.readString(p));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<Path> cpuacctRoot() {
    return read(Path.of("/proc/self/mounts")).flatMap(CpuMeter::cpuacctMount);
  }

  /**
   * Where the cgroup v1 hierarchy with the cpuacct controller is mounted (alone or co-mounted, e.g.
   * {@code cpu,cpuacct}), from /proc/self/mounts; empty on a cgroup v2-only host.
   */
  static Optional<Path> cpuacctMount(String mounts) {
    for (String line : mounts.lines().toList()) {
      String[] f = line.split(" ", -1);
      if (f.length >= 4
          && f[2].equals("cgroup")
          && List.of(f[3].split(",", -1)).contains("cpuacct")) {
        return Optional.of(Path.of(f[1]));
      }
    }
    return Optional.empty();
  }

  /**
   * A process's cgroup in the cpuacct hierarchy, from its /proc/<pid>/cgroup ({@code
   * 2:cpuacct:/localkube/node} or {@code 3:cpu,cpuacct:/x}); empty when it has no such line.
   */
  static Optional<String> cpuacctPath(String procCgroup) {
    for (String line : procCgroup.lines().toList()) {
      String[] f = line.split(":", 3);
      if (f.length == 3 && List.of(f[1].split(",", -1)).contains("cpuacct")) {
        return Optional.of(f[2].strip());
      }
    }
    return Optional.empty();
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
