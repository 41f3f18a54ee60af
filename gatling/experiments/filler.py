#!/usr/bin/env python3
"""Vertical headroom benchmark analysis (issue 12, item 6; `isolato-bench filler`).

usage: filler.py RESULT_DIR [LOG_MD]
RESULT_DIR holds meta.json and runs/<mode>-<rate>-r<rep>/ with meta.json (mode on|off, rate,
wall time, class pod and filler CPU in ms), samples.csv (openloop -samples: intended send time,
latency, 2xx) and stat0/stat1 (/proc/stat before and after). Writes summary.json, table.md and
filler.png (under docs/results/ for the stored results, runner.places) into RESULT_DIR, and with
LOG_MD writes its section "filler" (runner.sections).
"""

from __future__ import annotations

import json
import statistics
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from reaction_time import p95
from runner.knee import quantile_ci_ranks
from runner.places import plot_dir
from runner.sections import host_line, write_section

TITLE = "## Vertical headroom"
KEY = "filler"  # the section's markers


def cpu_times(stat: str) -> dict[str, tuple[int, int]]:
    """/proc/stat text → {"cpu": (busy, total), "cpu0": ..., ...} in clock ticks (idle and iowait
    are not busy; guest time is already in user)."""
    out = {}
    for line in stat.splitlines():
        parts = line.split()
        if parts and parts[0].startswith("cpu"):
            ticks = [int(x) for x in parts[1:9]]  # user nice system idle iowait irq softirq steal
            total = sum(ticks)
            out[parts[0]] = (total - ticks[3] - ticks[4], total)
    return out


def parse_cpus(spec: str) -> set[int]:
    """ "0", "0-1,3" → {0, 1, 3}; "" → empty."""
    cpus: set[int] = set()
    for part in filter(None, spec.split(",")):
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def utilisation(before: str, after: str, cpus: set[int] | None = None) -> float:
    """Busy share of the given CPUs (None: all, the "cpu" line) between two /proc/stat texts."""
    a, b = cpu_times(before), cpu_times(after)
    keys = ["cpu"] if cpus is None else [f"cpu{c}" for c in sorted(cpus)]
    busy = sum(b[k][0] - a[k][0] for k in keys)
    total = sum(b[k][1] - a[k][1] for k in keys)
    return busy / total if total > 0 else 0.0


def p95_ci(latencies: list[float], confidence: float = 0.95) -> tuple[float, float]:
    """Distribution-free CI of the p95 from the samples themselves (order statistics). A filler
    run has thousands of samples; a bound beyond a smaller sample is its smallest or largest."""
    s = sorted(latencies)
    low, high = quantile_ci_ranks(len(s), 0.95, confidence)
    return s[max(low, 1) - 1], s[min(high, len(s)) - 1]


@dataclass(frozen=True)
class Run:
    mode: str
    rate_rps: float
    rep: int
    count: int
    errors: int
    p95_ms: float
    p95_low_ms: float
    p95_high_ms: float
    node_util: float
    pod_cpus_util: float
    class_millicores: float
    filler_millicores: float
    pod_cpus: int

    @property
    def pods_used(self) -> float:
        """Share of the pods' CPUs that the class pod and the filler used (their cpuacct)."""
        return (self.class_millicores + self.filler_millicores) / (1000 * self.pod_cpus)


def analyse(d: Path) -> Run:
    meta = json.loads((d / "meta.json").read_text())
    lat, errors = [], 0
    for line in (d / "samples.csv").read_text().splitlines()[1:]:
        _due, ms, ok = line.split(",")
        lat.append(float(ms))
        errors += ok.strip() not in ("1", "true")
    if not lat:
        raise ValueError(f"{d}: no samples")
    before, after = (d / "stat0").read_text(), (d / "stat1").read_text()
    all_cpus = {int(k[3:]) for k in cpu_times(before) if k != "cpu"}
    pod_cpus = all_cpus - parse_cpus(meta.get("generatorCpus", "")) or all_cpus
    wall_s = meta["wallMs"] / 1000
    low, high = p95_ci(lat)
    return Run(
        mode=meta["mode"],
        rate_rps=meta["rateRps"],
        rep=meta["rep"],
        count=len(lat),
        errors=errors,
        p95_ms=p95(lat),
        p95_low_ms=low,
        p95_high_ms=high,
        node_util=utilisation(before, after),
        pod_cpus_util=utilisation(before, after, pod_cpus),
        class_millicores=meta["classCpuMs"] / wall_s,
        filler_millicores=meta["fillerCpuMs"] / wall_s,
        pod_cpus=len(pod_cpus),
    )


def table(runs: list[Run]) -> str:
    """One line per (rate, filler): p95 of each repetition with its 95 % CI, and the means."""
    rows = [
        "| load | filler | class p95 per run, ms [95 % CI] | mean p95 ms | class pod CPU"
        " | filler CPU | pods' CPUs used by class + filler | node CPU busy | pods' CPUs busy |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for rate in sorted({r.rate_rps for r in runs}):
        for mode in ("off", "on"):
            rs = [r for r in runs if r.rate_rps == rate and r.mode == mode]
            rs.sort(key=lambda r: r.rep)
            if not rs:
                continue
            per_run = "; ".join(
                f"{r.p95_ms:.1f} [{r.p95_low_ms:.1f}, {r.p95_high_ms:.1f}]" for r in rs
            )
            errors = sum(r.errors for r in rs)
            rows.append(
                f"| {rate:g} req/s | {mode} | {per_run}{f' ({errors} errors)' if errors else ''}"
                f" | {statistics.mean(r.p95_ms for r in rs):.1f}"
                f" | {statistics.mean(r.class_millicores for r in rs):.0f}m"
                f" | {statistics.mean(r.filler_millicores for r in rs):.0f}m"
                f" | {100 * statistics.mean(r.pods_used for r in rs):.0f} %"
                f" | {100 * statistics.mean(r.node_util for r in rs):.0f} %"
                f" | {100 * statistics.mean(r.pod_cpus_util for r in rs):.0f} % |"
            )
    return "\n".join(rows)


def plot(result_dir: Path, runs: list[Run]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rates = sorted({r.rate_rps for r in runs})
    fig, (ax, axu) = plt.subplots(1, 2, figsize=(10, 4))
    for i, mode in enumerate(("off", "on")):
        for j, rate in enumerate(rates):
            rs = [r for r in runs if r.rate_rps == rate and r.mode == mode]
            xs = [j + (i - 0.5) * 0.3 + (k - 1) * 0.06 for k in range(len(rs))]
            ax.errorbar(
                xs,
                [r.p95_ms for r in rs],
                yerr=[
                    [r.p95_ms - r.p95_low_ms for r in rs],
                    [r.p95_high_ms - r.p95_ms for r in rs],
                ],
                fmt="o",
                color=f"C{i}",
                label=f"filler {mode}" if j == 0 else None,
            )
            axu.bar(
                j + (i - 0.5) * 0.35,
                100 * statistics.mean(r.pods_used for r in rs),
                width=0.35,
                color=f"C{i}",
                label=f"filler {mode}" if j == 0 else None,
            )
    for a in (ax, axu):
        a.set_xticks(range(len(rates)), [f"{r:g} req/s" for r in rates])
        a.legend(fontsize=8)
    ax.set_ylabel("class p95 (ms), 95 % CI")
    ax.set_title("Class p95 per run")
    axu.set_ylabel("pods' CPUs used by class + filler (%)")
    axu.set_title("CPU utilisation")
    fig.tight_layout()
    fig.savefig(plot_dir(result_dir) / "filler.png", dpi=110)


def section(runs: list[Run], meta: dict, host: str) -> str:
    return "\n".join(
        [
            f"{TITLE} (issue 12, item 6; SAC'20 Finding 5)",
            "",
            f"{host}. `make bench-filler` (`isolato-bench filler`): one class pod requesting"
            f" {meta['podCpu']} with {meta['headroom']} of headroom (CPU limit = request +"
            f" headroom), one tenant (profile cpu {meta['profileCpu']}) sending a fixed open-loop"
            f" load at 0.5× and 0.9× of the pod's cut-off ({meta['cutoffRps']} req/s at"
            f" {meta['podCpu']}), with the filler (saas-bench soak, 10m request, limit"
            f" {meta['headroom']}, lowest priority) and without, {meta['secondsPerRun']} s per run,"
            f" {meta['reps']} repetitions with the filler's order alternating. The generator"
            f" runs on CPU {meta['generatorCpus']}, the pods on the others (pinned.py). Class pod"
            " and filler CPU: their cgroups' cpuacct over the run; busy: /proc/stat, all CPUs"
            " and the pods' CPUs (on this shared machine other sessions' idle-priority builds"
            " fill what the pods leave, so busy is near 100 % either way and the cpuacct"
            " columns are the utilisation the filler adds). CI: distribution-free 95 % interval"
            " of each run's p95 from its samples. Raw data, plot:"
            " [results/filler](../results/filler/).",
            "",
            table(runs),
            "",
            "![class p95 and CPU utilisation, filler on and off](results/filler/filler.png)",
            "",
        ]
    )


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print(__doc__, file=sys.stderr)
        return 2
    result_dir = Path(argv[0])
    dirs = sorted(p for p in (result_dir / "runs").glob("*") if (p / "meta.json").exists())
    if not dirs:
        print(f"filler.py: no runs under {result_dir / 'runs'}", file=sys.stderr)
        return 1
    runs = [analyse(d) for d in dirs]
    meta = json.loads((result_dir / "meta.json").read_text())
    (result_dir / "summary.json").write_text(json.dumps([asdict(r) for r in runs], indent=2) + "\n")
    (result_dir / "table.md").write_text(table(runs) + "\n")
    plot(result_dir, runs)
    print(table(runs))
    if len(argv) == 2:
        write_section(Path(argv[1]), section(runs, meta, host_line()), KEY)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
