"""Measurement hygiene (issue 13, item 1): the load generator on CPUs disjoint from the pods,
and a record of what could still contaminate a calibration.

Pinning (cgroup v1, kubelet with the cgroupfs driver and cpuManagerPolicy none): the kubelet's
pod tree /sys/fs/cgroup/cpuset/kubepods is narrowed to the pods' CPUs (deepest cgroups first:
a cgroup v1 parent cannot be narrowed below a child), the generator runs under `taskset` on the
others. Restoring widens what was changed (parents first), and the cgroups created meanwhile
that inherited the narrowed set. The kubelet v1.34 with the none policy writes the kubepods
cpuset (all CPUs) once, when it starts (enforceNodeAllocatableCgroups), and never for QoS or
pod cgroups; new pods' cgroups inherit their parent's set. So the narrowing holds until a
kubelet restart, which the sampler (it re-reads the set every second) reports as shared CPUs.

Thresholds (a run beyond any is `contaminated`, not stored as a cut-off):
- the generator's CPU use above 70 % of its CPUs: its own queueing (timers, event loop, GC)
  then delays sends by u/(1-u) ≈ 2.3 times (u = 0.7) its per-request CPU cost (0.1-0.3 ms) or more,
  which eats into the 2 ms low-load goal and grows steeply beyond (9× at 90 %);
- steal above 5 % on the pods' CPUs: it removes capacity the CFS quota does not see, and the
  cut-off goal is ±10 %, so 5 % keeps it at half the tolerance (a step that passed despite it
  cannot move the cut-off and is only recorded, unless its p95 is the run's low-load figure);
- any CPU shared between the generator and the pods;
- processes outside every pod using more than 10 % of the pods' CPUs (a build, a benchmark, the
  host's control plane under load): they run at the root cgroup's weight, ten times a 100m pod's,
  so the pod waits for them beyond what its quota explains (a run at 50 req/s with a 10,000-tenant
  benchmark beside it measured p95 58 ms against 3 ms alone, and was judged clean without this).
  The pods' neighbours inside kubepods (Prometheus, the system pods) are the context, not judged.
CFS throttling of the class's pods is recorded, not judged: it is the quota being measured.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .wire import contamination

MAX_GENERATOR_CPU_PCT = 70.0
MAX_STEAL_PCT = 5.0
MAX_OUTSIDE_CPU_PCT = 10.0
CPUSET_ROOT = Path("/sys/fs/cgroup/cpuset")
CPU_ROOT = Path("/sys/fs/cgroup/cpu")
CPUACCT_ROOT = Path("/sys/fs/cgroup/cpuacct")


# ---------------------------------------------------------------------------- parsing (pure)


def parse_cpulist(text: str) -> frozenset[int]:
    """'0-1,3' -> {0, 1, 3} (the kernel's list format; empty -> empty)."""
    out: set[int] = set()
    for part in text.strip().split(","):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return frozenset(out)


def format_cpulist(cpus: Iterable[int]) -> str:
    """{0, 1, 3} -> '0-1,3'."""
    ranges: list[list[int]] = []
    for c in sorted(cpus):
        if ranges and c == ranges[-1][1] + 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges)


def parse_proc_stat(text: str) -> dict[int, tuple[int, int, int]]:
    """Per CPU (cpuN lines of /proc/stat): (steal ticks, total ticks, idle + iowait ticks)."""
    out = {}
    for line in text.splitlines():
        name, *values = line.split()
        if name.startswith("cpu") and name[3:].isdigit():
            ticks = [int(v) for v in values[:8]]  # user nice system idle iowait irq softirq steal
            out[int(name[3:])] = (ticks[7], sum(ticks), ticks[3] + ticks[4])
    return out


def parse_pid_stat(text: str) -> int:
    """utime + stime (clock ticks) of a /proc/<pid>/stat line (comm may hold spaces)."""
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[11]) + int(fields[12])  # fields 14 and 15 of proc(5)


def parse_ppid(text: str) -> int:
    return int(text[text.rindex(")") + 2 :].split()[1])


def parse_cpu_stat(text: str) -> dict[str, int]:
    """nr_periods, nr_throttled, throttled_time (ns) of a cgroup v1 cpu.stat."""
    values = dict(line.split() for line in text.splitlines() if line.strip())
    return {k: int(values.get(k, 0)) for k in ("nr_periods", "nr_throttled", "throttled_time")}


def parse_cpuacct_stat(text: str) -> dict[str, int]:
    """user and system ticks (USER_HZ) of a cgroup v1 cpuacct.stat."""
    values = dict(line.split() for line in text.splitlines() if line.strip())
    return {k: int(values.get(k, 0)) for k in ("user", "system")}


def cpuacct_dir(cpu_dir: Path, cpu_root: Path = CPU_ROOT, acct_root: Path = CPUACCT_ROOT) -> Path:
    """A cpu cgroup's cpuacct twin: the same directory where the two controllers share a
    hierarchy (cpu,cpuacct), else the same path below the cpuacct root."""
    if (cpu_dir / "cpuacct.usage").exists():
        return cpu_dir
    return acct_root / cpu_dir.relative_to(cpu_root)


# ---------------------------------------------------------------------------- judging (pure)


@dataclass(frozen=True)
class Sample:
    """One reading: monotonic time, the generator's CPU ticks (its process tree), steal and total
    ticks per CPU, the pods' summed cpu.stat, the pods' and the generator's CPUs, the pods' summed
    CPU time (cpuacct.usage, ns) and its system part (ticks), every pod's CPU time (kubepods'
    cpuacct.usage, ns); None where not read."""

    t: float
    generator_ticks: int
    cpus: Mapping[int, tuple[int, int]]
    throttle: Mapping[str, int]
    pod_cpus: frozenset[int]
    generator_cpus: frozenset[int]
    pod_usage_ns: int | None = None
    pod_system_ticks: int | None = None
    kubepods_usage_ns: int | None = None


def window(a: Sample, b: Sample, clk_tck: int = 100) -> dict[str, Any]:
    """What happened between two samples, in percent of the time and CPUs concerned."""
    seconds = max(b.t - a.t, 1e-9)
    gen_cpus = max(len(b.generator_cpus), 1)
    gen_pct = 100.0 * (b.generator_ticks - a.generator_ticks) / clk_tck / seconds / gen_cpus
    steal = sum(b.cpus[c][0] - a.cpus[c][0] for c in b.pod_cpus if c in a.cpus and c in b.cpus)
    total = sum(b.cpus[c][1] - a.cpus[c][1] for c in b.pod_cpus if c in a.cpus and c in b.cpus)
    periods = b.throttle["nr_periods"] - a.throttle["nr_periods"]
    throttled = b.throttle["nr_throttled"] - a.throttle["nr_throttled"]
    out: dict[str, Any] = {
        "seconds": round(seconds, 3),
        "generatorCpuPct": round(gen_pct, 1),
        "stealPct": round(100.0 * steal / total, 2) if total > 0 else 0.0,
        "throttledPeriodsPct": round(100.0 * throttled / periods, 1) if periods > 0 else 0.0,
        "throttledMs": round(
            (b.throttle["throttled_time"] - a.throttle["throttled_time"]) / 1e6, 1
        ),
        "sharedCpus": format_cpulist(
            (a.pod_cpus & a.generator_cpus) | (b.pod_cpus & b.generator_cpus)
        ),
    }
    # The pods' own CPU: what their quota pays per request, whichever generator sent it.
    if a.pod_usage_ns is not None and b.pod_usage_ns is not None:
        out["podCpuPct"] = round(100.0 * (b.pod_usage_ns - a.pod_usage_ns) / 1e9 / seconds, 2)
    if a.pod_system_ticks is not None and b.pod_system_ticks is not None:
        system = (b.pod_system_ticks - a.pod_system_ticks) / clk_tck
        out["podSystemCpuPct"] = round(100.0 * system / seconds, 1)
    # What ran on the pods' CPUs outside every pod: their busy time (not idle, iowait or steal)
    # less all pods' CPU time (kubepods is narrowed to these CPUs), per CPU.
    cpus = [c for c in b.pod_cpus if c in a.cpus and c in b.cpus and len(b.cpus[c]) > 2]
    if cpus and a.kubepods_usage_ns is not None and b.kubepods_usage_ns is not None:
        busy = sum(_busy(b.cpus[c]) - _busy(a.cpus[c]) for c in cpus)
        pods_s = (b.kubepods_usage_ns - a.kubepods_usage_ns) / 1e9
        outside = (busy / clk_tck - pods_s) / seconds / len(cpus)
        out["outsidePodsCpuPct"] = round(max(0.0, 100.0 * outside), 1)
    return out


def _busy(ticks: tuple[int, ...]) -> int:
    """A CPU's ticks neither idle, iowait nor stolen."""
    steal, total, idle = ticks[:3]
    return total - idle - steal


def step_windows(
    samples: Sequence[Sample], end: float, durations: Sequence[float], clk_tck: int = 100
) -> list[dict[str, Any]]:
    """One window per step, steps back to back and ending at `end` (the generator's exit: the
    load phase's start is not observable for a forked JVM, its end is); each window spans the
    samples nearest to the step's planned start and end."""
    out = []
    t = end - sum(durations)
    for d in durations:
        a = min(samples, key=lambda s, at=t: abs(s.t - at))
        b = min(samples, key=lambda s, at=t + d: abs(s.t - at))
        out.append(window(a, b, clk_tck) if b.t > a.t else {"seconds": 0.0, "unmeasured": True})
        t += d
    return out


def step_reasons(
    i: int,
    w: Mapping[str, Any],
    pinned: bool,
    max_generator_pct: float = MAX_GENERATOR_CPU_PCT,
    max_steal_pct: float = MAX_STEAL_PCT,
    max_outside_pct: float = MAX_OUTSIDE_CPU_PCT,
) -> list[str]:
    """Why step i's window is contaminated (empty: clean)."""
    if w.get("unmeasured"):
        return [f"step {i}: not measured (shorter than the 1 s sampling)"]
    reasons = []
    if w["sharedCpus"] and pinned:  # unpinned: said once for the run
        reasons.append(f"step {i}: CPUs {w['sharedCpus']} shared by the generator and the pods")
    if w["generatorCpuPct"] > max_generator_pct:
        reasons.append(
            f"step {i}: the generator used {w['generatorCpuPct']} % of its CPUs "
            f"(> {max_generator_pct} %)"
        )
    if w["stealPct"] > max_steal_pct:
        reasons.append(f"step {i}: steal {w['stealPct']} % on the pods' CPUs (> {max_steal_pct} %)")
    if w.get("outsidePodsCpuPct", 0.0) > max_outside_pct:
        reasons.append(
            f"step {i}: processes outside the pods used {w['outsidePodsCpuPct']} % of the pods'"
            f" CPUs (> {max_outside_pct} %)"
        )
    if "wire" in w and (why := contamination(i, w["wire"])):
        reasons.append(why)
    return reasons


UNTHROTTLED_PCT = 1.0  # a step whose pods were throttled in more periods paid for waiting too


def pod_cpu_per_request(steps: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """What one request cost the pods in CPU: the slope of their CPU time per second against
    the offered rate (least squares over the steps with a podCpuPct that were not throttled),
    its intercept the pods' idle CPU; None below three such steps at different rates. Both
    instruments' runs on the same pods should give the same slope: a request is a request."""
    pts = [
        (float(s["offeredRps"]), 10.0 * s["podCpuPct"])  # % of a CPU -> ms per s
        for s in steps
        if s.get("podCpuPct") is not None
        and s.get("throttledPeriodsPct", 0.0) <= UNTHROTTLED_PCT
        and s.get("seconds", 0.0) > 0
    ]
    if len({x for x, _ in pts}) < 3:
        return None
    n = len(pts)
    mx, my = sum(x for x, _ in pts) / n, sum(y for _, y in pts) / n
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    slope = sum((x - mx) * (y - my) for x, y in pts) / sxx
    resid = [y - my - slope * (x - mx) for x, y in pts]
    se = math.sqrt(sum(r * r for r in resid) / (n - 2) / sxx) if n > 2 else None
    return {
        "msPerRequest": round(slope, 3),
        "msPerRequestSe": None if se is None else round(se, 3),
        "idleMsPerSecond": round(my - slope * mx, 2),
        "steps": n,
    }


def assess(
    windows: Sequence[Mapping[str, Any]],
    pinning: Mapping[str, Any],
    max_generator_pct: float = MAX_GENERATOR_CPU_PCT,
    max_steal_pct: float = MAX_STEAL_PCT,
    max_outside_pct: float = MAX_OUTSIDE_CPU_PCT,
    moot: Callable[[set[int], set[int]], Mapping[int, str]] | None = None,
) -> dict[str, Any]:
    """`clean` or `contaminated` with every reason (step by step), and the thresholds used.
    `moot`, given the contaminated steps' positions and those of them whose only fault is CPU
    taken from the pods (steal, processes outside them),
    names the steps whose contamination cannot change the result, each with why
    (knee.moot_steps); their reasons are kept under `ignored`."""
    reasons = []
    pinned = bool(pinning.get("pinned"))
    if not pinned:
        reasons.append(
            f"the generator shares CPUs with the pods ({pinning.get('reason', 'not pinned')})"
        )
    per_step = {
        i: why
        for i, w in enumerate(windows)
        if (why := step_reasons(i, w, pinned, max_generator_pct, max_steal_pct, max_outside_pct))
    }
    # steps whose only fault is CPU taken from the pods (steal, processes outside the pods)
    steal_only = {
        i
        for i in per_step
        if not step_reasons(i, windows[i], pinned, max_generator_pct, math.inf, math.inf)
    }
    ignored = moot(set(per_step), steal_only) if moot else {}
    reasons += [r for i in sorted(per_step) if i not in ignored for r in per_step[i]]
    out = {
        "status": "contaminated" if reasons else "clean",
        "reasons": reasons,
        "thresholds": {
            "generatorCpuPct": max_generator_pct,
            "stealPct": max_steal_pct,
            "outsidePodsCpuPct": max_outside_pct,
        },
    }
    if ignored:
        out["ignored"] = [f"{r} ({ignored[i]})" for i in sorted(ignored) for r in per_step[i]]
    return out


def split_cpus(online: frozenset[int]) -> tuple[frozenset[int], frozenset[int]] | None:
    """(generator CPUs, pods' CPUs): the first CPU for the generator, the rest for the pods;
    None with fewer than two CPUs."""
    if len(online) < 2:
        return None
    first = min(online)
    return frozenset({first}), online - {first}


# ---------------------------------------------------------------------------- adapters


@dataclass
class CpusetPinning:
    """Narrows the kubepods cpuset tree to the pods' CPUs and restores what it changed."""

    root: Path = CPUSET_ROOT
    changed: list[tuple[Path, str]] = field(
        default_factory=list
    )  # (cgroup, old cpus), parents first
    pod_cpus: frozenset[int] = frozenset()

    @property
    def kubepods(self) -> Path:
        return self.root / "kubepods"

    def apply(self) -> dict[str, Any]:
        """Pins; {pinned, generatorCpus, podCpus, changed} or {pinned: False, reason}."""
        if not (self.kubepods / "cpuset.cpus").is_file():
            return {
                "pinned": False,
                "reason": f"no cgroup v1 cpuset {self.kubepods} (kubelet down?)",
            }
        online = parse_cpulist((self.root / "cpuset.effective_cpus").read_text())
        split = split_cpus(online)
        if split is None:
            return {"pinned": False, "reason": f"one CPU only ({format_cpulist(online)})"}
        gen, pods = split
        self.pod_cpus = pods
        cgroups = sorted(
            (p.parent for p in self.kubepods.rglob("cpuset.cpus")), key=lambda p: len(p.parts)
        )
        try:
            for cg in reversed(cgroups):  # deepest first
                old = (cg / "cpuset.cpus").read_text().strip()
                new = parse_cpulist(old) & pods or pods
                if parse_cpulist(old) != new:
                    (cg / "cpuset.cpus").write_text(format_cpulist(new))
                    self.changed.insert(0, (cg, old))
        except OSError as e:
            self.restore()
            return {"pinned": False, "reason": f"cannot write {cg}/cpuset.cpus: {e}"}
        return {
            "pinned": True,
            "generatorCpus": format_cpulist(gen),
            "podCpus": format_cpulist(pods),
            "changed": [
                f"{cg.relative_to(self.root)}: {old} -> {format_cpulist(pods)}"
                for cg, old in self.changed
            ],
        }

    def restore(self) -> list[str]:
        """Widens the changed cgroups (parents first), then the ones created meanwhile that
        inherited the narrowed set; what it restored."""
        done = []
        changed = dict(self.changed)
        for cg, old in self.changed:
            with contextlib.suppress(FileNotFoundError):  # a pod's cgroup gone with its pod
                (cg / "cpuset.cpus").write_text(old)
                done.append(f"{cg.relative_to(self.root)}: {old}")
        if self.changed and self.kubepods.is_dir():
            for f in sorted(self.kubepods.rglob("cpuset.cpus"), key=lambda p: len(p.parts)):
                cg = f.parent
                with contextlib.suppress(FileNotFoundError):
                    if cg not in changed and parse_cpulist(f.read_text()) == self.pod_cpus:
                        parent = (cg.parent / "cpuset.cpus").read_text().strip()
                        f.write_text(parent)
                        done.append(
                            f"{cg.relative_to(self.root)}: {parent} (inherited the pinning)"
                        )
        self.changed = []
        return done


def taskset_prefix(cpus: str) -> list[str]:
    return ["taskset", "-c", cpus]


def _tree(root_pid: int) -> list[int]:
    """root_pid and its descendants (Maven forks the Gatling JVM)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            with contextlib.suppress(OSError, ValueError):
                children.setdefault(parse_ppid((d / "stat").read_text()), []).append(int(d.name))
    out, todo = [], [root_pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def _affinity(pids: Sequence[int]) -> frozenset[int]:
    cpus: set[int] = set()
    for p in pids:
        with contextlib.suppress(OSError):
            cpus |= os.sched_getaffinity(p)
    return frozenset(cpus)


class Sampler:
    """Reads the generator's CPU ticks, steal per CPU, the pods' throttling and both CPU sets
    once a second in a thread, from start() to stop()."""

    def __init__(self, pod_cgroups: Callable[[], Sequence[Path]], interval_s: float = 1.0) -> None:
        self.pod_cgroups = pod_cgroups
        self.interval_s = interval_s
        self.samples: list[Sample] = []
        self.pid = 0
        self._ticks: dict[int, int] = {}  # per pid, so that an exited child keeps its share
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def read(self) -> Sample:
        tree = _tree(self.pid) if self.pid else []
        for p in tree:
            with contextlib.suppress(OSError, ValueError):
                self._ticks[p] = parse_pid_stat(Path(f"/proc/{p}/stat").read_text())
        throttle = {"nr_periods": 0, "nr_throttled": 0, "throttled_time": 0}
        usage: int | None = None
        system: int | None = None
        for cg in self.pod_cgroups():
            with contextlib.suppress(OSError):
                for k, v in parse_cpu_stat((cg / "cpu.stat").read_text()).items():
                    throttle[k] += v
            acct = cpuacct_dir(cg)
            with contextlib.suppress(OSError, ValueError):
                ns = int((acct / "cpuacct.usage").read_text())
                ticks = parse_cpuacct_stat((acct / "cpuacct.stat").read_text())["system"]
                usage, system = (usage or 0) + ns, (system or 0) + ticks
        kubepods: int | None = None
        with contextlib.suppress(OSError, ValueError):
            acct = cpuacct_dir(CPU_ROOT / "kubepods")
            kubepods = int((acct / "cpuacct.usage").read_text())
        try:
            pods = parse_cpulist((CPUSET_ROOT / "kubepods" / "cpuset.effective_cpus").read_text())
        except OSError:
            pods = frozenset(os.sched_getaffinity(0))
        return Sample(
            time.monotonic(),
            sum(self._ticks.values()),
            parse_proc_stat(Path("/proc/stat").read_text()),
            throttle,
            pods,
            _affinity(tree) if tree else frozenset(),
            usage,
            system,
            kubepods,
        )

    def start(self, pid: int) -> None:
        self.pid = pid
        self.samples.append(self.read())
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval_s):
            self.samples.append(self.read())

    def stop(self) -> float:
        """Stops sampling; the time of the last sample (the generator's exit)."""
        self._stop.set()
        if self._thread:
            self._thread.join()
        last = self.read()
        last = Sample(
            last.t,
            last.generator_ticks,
            last.cpus,
            last.throttle,
            last.pod_cpus,
            self.samples[-1].generator_cpus,
            last.pod_usage_ns,
            last.pod_system_ticks,
            last.kubepods_usage_ns,
        )
        self.samples.append(last)
        return last.t


def pod_cgroup_dirs(pod_uids: Iterable[str], root: Path = CPU_ROOT) -> list[Path]:
    """The cgroupfs-driver cpu cgroups of these pods (Guaranteed, Burstable, BestEffort)."""
    out = []
    for uid in pod_uids:
        for qos in ("", "burstable/", "besteffort/"):
            d = root / "kubepods" / f"{qos}pod{uid}"
            if d.is_dir():
                out.append(d)
    return out
