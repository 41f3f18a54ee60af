#!/usr/bin/env python3
"""Where the CPU goes while pause pods start at once on localkube (`isolato-bench cpu-profile`):
perf's samples of every CPU grouped by process, beside the cgroup meter and /proc/stat over the
same window, as a docs/benchmarks-log.md section, a JSON record and a bar plot.

cpu_profile.main(MACHINE, PODS, WORK_DIR, OUT.json) → the section
(OUT.png, under docs/results/ for the stored results: milliseconds of CPU per pod by process
group, both instruments' shares)

WORK_DIR holds, per run N: rN.report (`perf report --sort comm --stdio -F sample,comm`), rN.before
and rN.after (counters: a /proc/stat "cpu" line, then "control-plane NANOS", "node NANOS",
"kubepods NANOS" from localkube's cpuacct cgroups) and rN.seconds (create to all pods Ready).
"""

import json
import re
import statistics
from datetime import UTC, datetime
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from runner.places import plot_path

# perf names a sample by its thread's comm (15 characters at most); the groups say who does the
# work: the runtime's per-container processes, the CNI plugins it runs per pod, the node's and the
# control plane's daemons. Everything else (the cluster's other pods, JVM threads, kernel threads)
# is "other".
GROUPS = (
    ("runc", re.compile(r"^(runc(:\[.*)?|exe)$")),
    ("containerd-shim", re.compile(r"^containerd-shim")),
    (
        "CNI plugins + iptables",
        re.compile(r"^(bridge|host-local|loopback|portmap|ip6?tables.*|xtables.*)$"),
    ),
    ("containerd", re.compile(r"^containerd$")),
    ("kubelet", re.compile(r"^kubelet$")),
    ("pause", re.compile(r"^pause$")),
    ("kube-apiserver", re.compile(r"^kube-apiserver$")),
    ("etcd", re.compile(r"^etcd$")),
    ("controller-manager + scheduler", re.compile(r"^kube-(controller|scheduler)")),
    ("measurement (perf, kubectl)", re.compile(r"^(perf|kubectl)$")),
)
IDLE = "swapper"
FREQ = 99  # perf record -F: samples per second of each CPU
USER_HZ = 100  # the unit of /proc/stat
NODE_GROUPS = (
    "runc",
    "containerd-shim",
    "CNI plugins + iptables",
    "containerd",
    "kubelet",
    "pause",
)
CONTROL_GROUPS = ("kube-apiserver", "etcd", "controller-manager + scheduler")


def group_of(comm):
    for name, pattern in GROUPS:
        if pattern.match(comm):
            return name
    return "other"


def parse_report(text):
    """{comm: samples} from `perf report --sort comm --stdio -F sample,comm`."""
    samples = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        count, _, comm = line.strip().partition(" ")
        if count.isdigit():
            samples[comm.strip()] = samples.get(comm.strip(), 0) + int(count)
    return samples


def parse_counters(text):
    """(busy jiffies, total jiffies, {cgroup: nanoseconds}) from a counters file."""
    lines = text.splitlines()
    f = [int(x) for x in lines[0].split()[1:]]
    idle = f[3] + (f[4] if len(f) > 4 else 0)
    cgroups = {}
    for line in lines[1:]:
        name, _, value = line.partition(" ")
        if value.strip().isdigit():
            cgroups[name] = int(value)
    return sum(f) - idle, sum(f), cgroups


def run_profile(report, before, after, seconds, cores, freq=FREQ):
    """One run: core-seconds per group by perf (a sample is 1/freq s of one CPU), and the busy
    shares of both instruments."""
    samples = parse_report(report)
    total = sum(samples.values())
    if total == 0:
        raise ValueError("perf recorded no samples")
    groups = {}
    for comm, n in samples.items():
        if comm != IDLE:
            g = group_of(comm)
            groups[g] = groups.get(g, 0.0) + n / freq
    b0, t0, c0 = parse_counters(before)
    b1, t1, c1 = parse_counters(after)
    core_seconds = (t1 - t0) / USER_HZ  # what all CPUs had over the counters' window
    cg = {k: (c1.get(k, 0) - c0.get(k, 0)) / 1e9 for k in c0}

    def share(x):
        return x / core_seconds if core_seconds > 0 else 0

    return {
        "seconds": seconds,
        "samples": total,
        "coreSeconds": groups,
        "perf": {
            "busy": (total - samples.get(IDLE, 0)) / total,
            "node": sum(groups.get(g, 0) for g in NODE_GROUPS) * freq / total,
            "controlPlane": sum(groups.get(g, 0) for g in CONTROL_GROUPS) * freq / total,
        },
        "meters": {
            "busy": share((b1 - b0) / USER_HZ),
            "node": share(cg.get("node", 0) + cg.get("kubepods", 0)),
            "controlPlane": share(cg.get("control-plane", 0)),
        },
    }


def summarise(runs, pods):
    """Medians over the runs: core-seconds per group and per pod, both instruments' shares."""
    names = sorted(
        {g for r in runs for g in r["coreSeconds"]},
        key=lambda g: -statistics.median(r["coreSeconds"].get(g, 0) for r in runs),
    )
    per_group = {g: statistics.median(r["coreSeconds"].get(g, 0) for r in runs) for g in names}
    return {
        "pods": pods,
        "runs": runs,
        "seconds": statistics.median(r["seconds"] for r in runs),
        "coreSeconds": per_group,
        "msPerPod": {g: 1000 * s / pods for g, s in per_group.items()},
        "perf": {
            k: statistics.median(r["perf"][k] for r in runs)
            for k in ("busy", "node", "controlPlane")
        },
        "meters": {
            k: statistics.median(r["meters"][k] for r in runs)
            for k in ("busy", "node", "controlPlane")
        },
    }


def pct(x):
    return f"{100 * x:.0f} %"


def markdown(s, machine, cores):
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    n = len(s["runs"])
    total = sum(s["coreSeconds"].values())
    each = ", ".join(f"{r['seconds']:.2f}" for r in s["runs"])
    out = [
        f"### Where the CPU goes: 1 × {s['pods']} pause pods started at once — {now} — {machine}",
        "",
        f"`isolato-bench cpu-profile {s['pods']} {n}`: {n} runs, each a Deployment"
        " created with kubectl and timed to `kubectl rollout status`, with"
        f" `perf record -a -F {FREQ}` over the same window and the node settled between runs."
        f" Medians of the runs: {s['seconds']:.2f} s "
        f"({each}), {total:.1f} core-seconds busy "
        f"(perf) on {cores} cores.",
        "",
        "| process group | core-seconds | share of busy | ms per pod |",
        "|---|---|---|---|",
    ]
    for g, v in s["coreSeconds"].items():
        out.append(f"| {g} | {v:.2f} | {pct(v / total)} | {s['msPerPod'][g]:.0f} |")
    p, m = s["perf"], s["meters"]
    out += [
        "",
        "Two instruments over the same window (perf's samples; /proc/stat and localkube's"
        f" cpuacct cgroups): host busy {pct(p['busy'])} vs {pct(m['busy'])},"
        f" node {pct(p['node'])} vs {pct(m['node'])},"
        f" control plane {pct(p['controlPlane'])} vs {pct(m['controlPlane'])}."
        " perf's error: a group of n samples is ± 1/sqrt(n) of itself"
        f" ({min(r['samples'] for r in s['runs'])} samples per run at least); perf is enabled"
        " just after the counters are read and disabled just before, a few ms each.",
        "",
    ]
    return "\n".join(out)


def plot(s, out):
    groups = list(s["msPerPod"])[::-1]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [3, 2]})
    left.barh(groups, [s["msPerPod"][g] for g in groups], color="tab:blue")
    for y, g in enumerate(groups):
        left.text(s["msPerPod"][g], y, f" {s['msPerPod'][g]:.0f}", va="center", fontsize=7)
    left.set_xlabel("CPU milliseconds per pod (perf samples, median of the runs)")
    left.tick_params(axis="y", labelsize=7)
    kinds = ("busy", "node", "controlPlane")
    x = range(len(kinds))
    right.bar([i - 0.2 for i in x], [100 * s["perf"][k] for k in kinds], 0.4, label="perf samples")
    right.bar(
        [i + 0.2 for i in x],
        [100 * s["meters"][k] for k in kinds],
        0.4,
        label="/proc/stat, cpuacct",
    )
    right.set_xticks(list(x), ["host busy", "node", "control plane"], fontsize=7)
    right.set_ylabel("% of all cores over the run")
    right.legend(fontsize=7)
    save(
        fig,
        f"1 x {s['pods']} pause pods started at once:"
        f" {s['seconds']:.1f} s to Ready (median of {len(s['runs'])})",
        out,
    )


def save(fig, title, out):
    """The plots' common title size and resolution."""
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(machine: str, pods: int, work: Path, out: Path) -> str:
    """Profiles the runs in WORK, writes OUT (JSON) and its plot, returns the section."""
    cores = int(re.search(r"(\d+) cores", machine).group(1))
    runs = []
    for report in sorted(work.glob("r*.report")):
        stem = report.with_suffix("")
        runs.append(
            run_profile(
                report.read_text(),
                stem.with_suffix(".before").read_text(),
                stem.with_suffix(".after").read_text(),
                float(stem.with_suffix(".seconds").read_text()),
                cores,
            )
        )
    if not runs:
        raise SystemExit(f"no runs in {work}")
    s = summarise(runs, pods)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(s, indent=2) + "\n")
    plot(s, plot_path(out))
    return markdown(s, machine, cores)
