"""The IO co-location guard on 2 real nodes (`isolato-bench coloc`, issue 37 item 4): an
IO-sensitive class's p95 beside an IO-heavy neighbour with the guard on (the neighbour kept on the
other node) and off (both on one node), alternated in one run. bench/sh/coloc.sh measures; this
reads its directory (runs/guard-<true|false>-r<rep>/: the sensitive class's open-loop runs alone
and beside the neighbour, the neighbour's run, /proc/diskstats and /proc/stat around each run)
and renders the table, the ratio of with- to without-guard p95 and the plot. Pure but for plot().
"""

from __future__ import annotations

import json
import statistics
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

KEY = "coloc"  # the section's markers in docs/benchmarks-log.md
SECTOR = 512  # /proc/diskstats counts 512-byte sectors whatever the device's block size


@dataclass(frozen=True)
class Load:
    """One open-loop run as the generator reported it (its -out JSON with -self-stats)."""

    offered_rps: float
    achieved_rps: float
    count: int
    errors: int
    p95_ms: float
    p95_low_ms: float
    p95_high_ms: float
    generator_cpu_pct: float


def load(run: dict[str, Any]) -> Load:
    step = run["steps"][0]
    t = step["total"]
    p95 = t["p95"] if t["p95"] is not None else float("nan")
    return Load(
        offered_rps=step["offeredRps"],
        achieved_rps=step["achievedRps"],
        count=t["count"],
        errors=t["errors"],
        p95_ms=p95,
        p95_low_ms=t.get("p95Low") or p95,
        p95_high_ms=t.get("p95High") or p95,
        generator_cpu_pct=(run.get("generator") or {}).get("cpuPct", float("nan")),
    )


@dataclass(frozen=True)
class Disk:
    """What the shared disk did between two /proc/diskstats snapshots."""

    write_mib_s: float
    flushes_s: float
    busy_pct: float


def diskstats(text: str, device: str) -> list[int]:
    """The counters of DEVICE's line (fields after major, minor and name)."""
    for line in text.splitlines():
        f = line.split()
        if len(f) > 3 and f[2] == device:
            return [int(x) for x in f[3:]]
    raise ValueError(f"no device {device} in /proc/diskstats")


def disk(before: str, after: str, device: str, seconds: float) -> Disk:
    a, b = diskstats(before, device), diskstats(after, device)
    d = [y - x for x, y in zip(a, b, strict=False)]
    # fields: 0 reads, 4 writes, 6 sectors written, 9 ms doing IO, 15 flushes (kernels ≥ 5.5)
    flushes = d[15] if len(d) > 15 else 0
    return Disk(
        write_mib_s=d[6] * SECTOR / 2**20 / seconds,
        flushes_s=flushes / seconds,
        busy_pct=min(100.0, 100 * d[9] / (1000 * seconds)),
    )


def cpu_busy(before: str, after: str) -> float:
    """Busy share (%) of all CPUs between two /proc/stat texts (idle and iowait not busy)."""

    def times(text: str) -> tuple[int, int]:
        ticks = [int(x) for x in text.splitlines()[0].split()[1:9]]
        return sum(ticks) - ticks[3] - ticks[4], sum(ticks)

    (b0, t0), (b1, t1) = times(before), times(after)
    return 100 * (b1 - b0) / (t1 - t0) if t1 > t0 else 0.0


@dataclass(frozen=True)
class Run:
    guard: bool
    rep: int
    sensitive_node: str
    noisy_node: str
    alone: Load
    beside: Load
    noisy: Load
    disk_alone: Disk
    disk_beside: Disk
    cpu_busy_beside_pct: float


def analyse(d: Path, device: str) -> Run:
    meta = json.loads((d / "meta.json").read_text())

    def text(name: str) -> str:
        return (d / name).read_text()

    def seconds(prefix: str) -> float:
        return (int(text(f"{prefix}1.t")) - int(text(f"{prefix}0.t"))) / 1e9

    def snap_disk(prefix: str) -> Disk:
        return disk(
            text(f"{prefix}0.diskstats"), text(f"{prefix}1.diskstats"), device, seconds(prefix)
        )

    return Run(
        guard=bool(meta["guard"]),
        rep=int(meta["rep"]),
        sensitive_node=meta["sensitiveNode"],
        noisy_node=meta["noisyNode"],
        alone=load(json.loads(text("alone.json"))),
        beside=load(json.loads(text("beside.json"))),
        noisy=load(json.loads(text("noisy.json"))),
        disk_alone=snap_disk("alone"),
        disk_beside=snap_disk("beside"),
        cpu_busy_beside_pct=cpu_busy(text("beside0.stat"), text("beside1.stat")),
    )


@dataclass(frozen=True)
class Ratio:
    """With-guard p95 over without-guard p95 beside the neighbour: the mean p95s' ratio, each
    repetition's (paired by repetition), and the widest interval the p95s' 95 % CIs allow."""

    ratio: float
    per_rep: list[float]
    low: float
    high: float


def ratio(runs: list[Run]) -> Ratio:
    on = {r.rep: r.beside for r in runs if r.guard}
    off = {r.rep: r.beside for r in runs if not r.guard}
    reps = sorted(on.keys() & off.keys())
    if not reps:
        raise ValueError("no repetition has both a run with and one without the guard")
    per_rep = [on[k].p95_ms / off[k].p95_ms for k in reps]
    mean_on = statistics.mean(on[k].p95_ms for k in reps)
    mean_off = statistics.mean(off[k].p95_ms for k in reps)
    low = min(on[k].p95_low_ms / off[k].p95_high_ms for k in reps)
    high = max(on[k].p95_high_ms / off[k].p95_low_ms for k in reps)
    return Ratio(mean_on / mean_off, per_rep, low, high)


def _ci(x: Load) -> str:
    return f"{x.p95_ms:.1f} [{x.p95_low_ms:.1f}, {x.p95_high_ms:.1f}]"


def table(runs: list[Run]) -> str:
    rows = [
        "| rep | guard | sensitive / neighbour node | sensitive p95 ms alone [95 % CI]"
        " | beside the neighbour | beside / alone | sensitive req/s offered / achieved, errors"
        " | neighbour req/s offered / achieved, errors | generators' CPU (sensitive, neighbour)"
        " | disk beside: MiB/s written, flushes/s, busy | all CPUs busy |",
        "|---:|---|---|---:|---:|---:|---|---|---|---|---:|",
    ]
    for r in sorted(runs, key=lambda r: (r.rep, not r.guard)):
        s, n, k = r.beside, r.noisy, r.disk_beside
        rows.append(
            f"| {r.rep} | {'on' if r.guard else 'off'} | {r.sensitive_node} / {r.noisy_node}"
            f" | {_ci(r.alone)} | {_ci(s)} | {s.p95_ms / r.alone.p95_ms:.2f}"
            f" | {s.offered_rps:.1f} / {s.achieved_rps:.1f}, {s.errors}"
            f" | {n.offered_rps:.1f} / {n.achieved_rps:.1f}, {n.errors}"
            f" | {s.generator_cpu_pct:.1f} %, {n.generator_cpu_pct:.1f} %"
            f" | {k.write_mib_s:.0f}, {k.flushes_s:.0f}, {k.busy_pct:.0f} %"
            f" | {r.cpu_busy_beside_pct:.0f} % |"
        )
    return "\n".join(rows)


def summary(runs: list[Run]) -> dict[str, Any]:
    q = ratio(runs)

    def mean(guard: bool, part: str) -> float:
        return statistics.mean(getattr(r, part).p95_ms for r in runs if r.guard == guard)

    return {
        "runs": [asdict(r) for r in runs],
        "ratio": asdict(q),
        "meanP95Ms": {
            m: {p: mean(g, p) for p in ("alone", "beside")}
            for m, g in (("guardOn", True), ("guardOff", False))
        },
    }


def when(meta: dict[str, Any], host: str, cpus: int) -> str:
    """When and where the run was measured: its own end time and load from meta.json (a stored
    run re-rendered later keeps them), else now (`host`: runner.sections.host_line())."""
    if "ended" not in meta:
        return host
    return (
        f"{meta['ended']}, {meta.get('host', host.split(', ')[1])}, {cpus} CPUs,"
        f" load average {meta.get('loadAverage', 'not recorded')} at the end"
    )


def report(runs: list[Run], meta: dict[str, Any], host: str, results: str) -> str:
    q = ratio(runs)
    s = summary(runs)["meanP95Ms"]
    per_rep = ", ".join(f"{x:.2f}" for x in q.per_rep)
    return "\n".join(
        [
            "## IO co-location guard on 2 nodes (`isolato-bench coloc`)",
            "",
            f"{host}. Two real localkube nodes on this one host ({meta['node1']}, the host"
            f" itself, and {meta['node2']}, a network namespace with its own containerd and"
            " kubelet). An IO-sensitive class (250m, one tenant committing 100 req/s of one 4 KiB"
            " write and an fdatasync each: IO-heavy by its syncs) pinned to node 1, offered"
            f" {meta['sensitiveRps']} req/s; an IO-heavy neighbour class (500m, one tenant writing"
            f" and syncing {meta['noisyIoBlocks'] * 4 // 1024} MiB per request) offered"
            f" {meta['noisyRps']} req/s. Guard on: both classes guarded, the neighbour free to go"
            " where the guard lets it (node 2); guard off: both `placement.ioGuard: false` and"
            " the neighbour pinned to node 1 (the co-location the guard prevents). Per phase the"
            f" sensitive class alone ({meta['aloneSeconds']} s, the neighbour idle) and then"
            f" beside the neighbour's load ({meta['secondsPerRun']} s), {meta['reps']}"
            " repetitions, the order flipping each. Generators on the host, bounded, their own"
            " CPU from -self-stats; the disk from /proc/diskstats of"
            f" {meta['disk']}; CI: the generator's distribution-free 95 % interval of each p95."
            f" Raw data: [{results}](../{results}/).",
            "",
            "What the guard can and cannot separate here: the two nodes have their own kubelet,"
            " containerd, network namespace and cgroup tree, but share this host's 2 CPUs, its"
            f" one virtual disk ({meta['disk']}) and the one filesystem both kubelets' emptyDirs"
            " live on, with one journal (an fdatasync on one node can wait for a journal commit"
            " carrying the other node's writes), the page cache and its writeback. On separate"
            " machines the neighbour's writes would go to another disk; here moving it to node 2"
            " moves only its process.",
            "",
            table(runs),
            "",
            f"Mean p95 beside the neighbour: guard on {s['guardOn']['beside']:.1f} ms, off"
            f" {s['guardOff']['beside']:.1f} ms (alone: {s['guardOn']['alone']:.1f} and"
            f" {s['guardOff']['alone']:.1f} ms). **With / without guard: {q.ratio:.2f}**"
            f" (per repetition {per_rep}; from the p95s' CIs {q.low:.2f} to {q.high:.2f}).",
            "",
            f"![sensitive p95 with and without the guard]({results}/coloc.png)",
            "",
        ]
    )


def samples(csv: str) -> list[float]:
    """Latencies (ms) of an openloop -samples file (intended send time, latency, 2xx)."""
    return [float(line.split(",")[1]) for line in csv.splitlines()[1:] if line.strip()]


def plot(result_dir: Path, out: Path, runs: list[Run]) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, cdf) = plt.subplots(1, 2, figsize=(11, 4))
    cats = [(False, "alone"), (False, "beside"), (True, "alone"), (True, "beside")]
    for i, (guard, part) in enumerate(cats):
        rs = sorted((r for r in runs if r.guard == guard), key=lambda r: r.rep)
        xs = [i + (k - (len(rs) - 1) / 2) * 0.1 for k in range(len(rs))]
        ys = [getattr(r, part) for r in rs]
        ax.errorbar(
            xs,
            [y.p95_ms for y in ys],
            yerr=[[y.p95_ms - y.p95_low_ms for y in ys], [y.p95_high_ms - y.p95_ms for y in ys]],
            fmt="o",
            color="C1" if guard else "C0",
        )
    ax.set_xticks(range(4), [f"guard {'on' if g else 'off'}\n{p}" for g, p in cats])
    ax.set_ylabel("sensitive class p95 (ms), 95 % CI")
    ax.set_title("p95 per repetition")
    for guard in (False, True):
        for part, style in (("alone", ":"), ("beside", "-")):
            lat = sorted(
                x
                for r in runs
                if r.guard == guard
                for x in samples((result_dir / "runs" / _dir(r) / f"{part}.csv").read_text())
            )
            if lat:
                ys = [(k + 1) / len(lat) for k in range(len(lat))]
                cdf.plot(
                    lat,
                    ys,
                    style,
                    color="C1" if guard else "C0",
                    label=f"guard {'on' if guard else 'off'}, {part}",
                )
    cdf.set_xscale("log")
    cdf.set_xlabel("latency (ms)")
    cdf.set_ylabel("share of requests")
    cdf.set_ylim(0.5, 1.0)
    cdf.set_title("Sensitive class latency (all repetitions)")
    cdf.legend(fontsize=8)
    fig.tight_layout()
    path = out / "coloc.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _dir(r: Run) -> str:
    return f"guard-{'true' if r.guard else 'false'}-r{r.rep}"


def read(result_dir: Path) -> tuple[list[Run], dict[str, Any]]:
    meta = json.loads((result_dir / "meta.json").read_text())
    device = Path(meta["disk"]).name or "vda"
    dirs = sorted(p for p in (result_dir / "runs").glob("guard-*") if (p / "meta.json").exists())
    if not dirs:
        raise ValueError(f"no runs under {result_dir / 'runs'}")
    return [analyse(d, device) for d in dirs], meta
