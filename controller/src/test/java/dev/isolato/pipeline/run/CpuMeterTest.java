package dev.isolato.pipeline.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the meter finds cgroups, and what it reads from real ones (cgroup v1 cpuacct, as root). */
class CpuMeterTest {

  @Test
  void findsTheCpuacctHierarchyAloneOrCoMountedAndNotCgroupV2() {
    String hybrid =
        """
        tmpfs /sys/fs/cgroup tmpfs rw,relatime,mode=755 0 0
        cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0
        cgroup /sys/fs/cgroup/cpuacct cgroup rw,relatime,cpuacct 0 0
        cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0
        """;
    assertThat(CpuMeter.cpuacctMount(hybrid)).contains(Path.of("/sys/fs/cgroup/cpuacct"));
    assertThat(
            CpuMeter.cpuacctMount(
                "cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,nosuid,cpu,cpuacct 0 0\n"))
        .contains(Path.of("/sys/fs/cgroup/cpu,cpuacct"));
    assertThat(CpuMeter.cpuacctMount("cgroup2 /sys/fs/cgroup cgroup2 rw,nsdelegate 0 0\n"))
        .isEmpty();
  }

  @Test
  void readsAProcesssCgroupInTheCpuacctHierarchyOnly() {
    String cgroup =
        """
        4:memory:/process_api/7fec
        2:cpuacct:/localkube/node
        1:cpu:/isolato-helpers
        0::/
        """;
    assertThat(CpuMeter.cpuacctPath(cgroup)).contains("/localkube/node");
    assertThat(CpuMeter.cpuacctPath("3:cpu,cpuacct:/kubepods/pod1\n")).contains("/kubepods/pod1");
    assertThat(CpuMeter.cpuacctPath("0::/user.slice\n")).isEmpty();
  }

  private final List<Process> started = new ArrayList<>();
  private final List<Path> groups = new ArrayList<>();

  @AfterEach
  void removeWhatTheTestCreated() throws Exception {
    for (Process p : started) {
      p.descendants().forEach(ProcessHandle::destroyForcibly); // a burning child, if one is left
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    for (int i = groups.size() - 1; i >= 0; i--) {
      Path group = groups.get(i);
      // The kernel lets go of a group a moment after its last task is reaped: rmdir meanwhile
      // fails with EBUSY (runc retries for the same reason). A group with tasks left still fails.
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(20))
          .ignoreExceptionsInstanceOf(FileSystemException.class)
          .until(() -> removedOnceEmpty(group));
    }
  }

  private static boolean removedOnceEmpty(Path group) throws IOException {
    if (Files.exists(group.resolve("cgroup.procs"))
        && !Files.readString(group.resolve("cgroup.procs")).isBlank()) {
      return false;
    }
    Files.deleteIfExists(group);
    return true;
  }

  /**
   * The node's agent starts a child that burns CPU and exits (as runc and the CNI plugins do): the
   * PID figure misses the child, the cgroup counts it; the control plane's cgroup, idle, reads ~0.
   */
  @Test
  void aPlanesCgroupCountsTheCpuOfItsExitedChildrenWhichItsPidDoesNot(@TempDir Path pids)
      throws Exception {
    Optional<Path> root = CpuMeter.cpuacctMount(Files.readString(Path.of("/proc/self/mounts")));
    assumeTrue(
        root.isPresent() && Files.isWritable(root.get()),
        "needs a writable cgroup v1 cpuacct hierarchy (root on a hybrid or v1 host)");
    Path top = mkdir(root.get().resolve("isolato-cpumeter-test-" + ProcessHandle.current().pid()));
    Path cpGroup = mkdir(top.resolve("control-plane"));
    Path nodeGroup = mkdir(top.resolve("node"));
    Process apiserver = start("read x");
    // the agent: on a line in, a child burns ~0.3 s of CPU, prints its own /proc stat and exits
    Process kubelet =
        start(
            "while read x; do"
                + " sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; cat /proc/$$/stat';"
                + " done");
    BufferedReader out =
        new BufferedReader(new InputStreamReader(kubelet.getInputStream(), StandardCharsets.UTF_8));
    Files.writeString(pids.resolve("kube-apiserver.pid"), apiserver.pid() + "\n");
    Files.writeString(pids.resolve("kubelet.pid"), kubelet.pid() + "\n");
    CpuMeter meter = CpuMeter.pidsIn(pids);

    CpuMeter.Mark before = meter.mark();
    assertThat(before.cgroups()).as("processes in the hierarchy's root: PIDs only").isFalse();
    long childNanos = burn(kubelet, out);
    CpuMeter.Mark after = meter.mark();
    assertThat(after.nodeNanos() - before.nodeNanos())
        .as("by PID: the exited child is missed")
        .isLessThan(childNanos / 2);

    Files.writeString(cpGroup.resolve("cgroup.procs"), apiserver.pid() + "\n");
    Files.writeString(nodeGroup.resolve("cgroup.procs"), kubelet.pid() + "\n");
    before = meter.mark();
    assertThat(before.cgroups()).isTrue();
    childNanos = burn(kubelet, out);
    after = meter.mark();
    assertThat(after.nodeNanos() - before.nodeNanos())
        .as("the node's cgroup (+ kubepods) counts the child")
        .isGreaterThanOrEqualTo(childNanos - 10_000_000L); // one USER_HZ tick of the child's figure
    assertThat(after.controlPlaneNanos() - before.controlPlaneNanos())
        .as("the idle control plane's own cgroup")
        .isLessThan(50_000_000L);
    assertThat(meter.since(before).cgroups()).isTrue();
  }

  /** The client (Isolato's controller on its own paths) is read by PID, all its threads. */
  @Test
  void theClientsCpuIsItsProcesssIncludingEveryThread(@TempDir Path pids) {
    CpuMeter meter = CpuMeter.pidsIn(pids).withClient(ProcessHandle.current().pid());
    CpuMeter.Mark before = meter.mark();
    long burned = burnInThisThread(Duration.ofMillis(200));
    CpuMeter.Mark after = meter.mark();
    assertThat(after.clientNanos() - before.clientNanos())
        .as("this JVM's CPU, which includes the %d ns this thread burned", burned)
        .isGreaterThanOrEqualTo(burned - 10_000_000L); // one USER_HZ tick
    assertThat(CpuMeter.pidsIn(pids).mark().clientNanos()).as("no client: not read").isZero();
  }

  /** Spins until this thread used {@code cpu} of CPU (at most 10 s of wall time); returns it. */
  private static long burnInThisThread(Duration cpu) {
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    long start = threads.getCurrentThreadCpuTime();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    long x = 0;
    while (threads.getCurrentThreadCpuTime() - start < cpu.toNanos()
        && System.nanoTime() < deadline) {
      x += Long.numberOfTrailingZeros(x + System.nanoTime());
    }
    assertThat(x).isNotNegative();
    return threads.getCurrentThreadCpuTime() - start;
  }

  private Path mkdir(Path p) throws IOException {
    Files.createDirectory(p);
    groups.add(p);
    return p;
  }

  private Process start(String script) throws IOException {
    Process p = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
    started.add(p);
    return p;
  }

  /** One line to the agent; its child's CPU time (utime + stime) once the child has finished. */
  private static long burn(Process agent, BufferedReader out) throws IOException {
    Writer in = agent.outputWriter(StandardCharsets.UTF_8);
    in.write("go\n");
    in.flush();
    String stat = out.readLine();
    return Math.round(CpuMeter.processTicks(stat) / CpuMeter.TICKS_PER_SECOND * 1e9);
  }
}
