"""Default vs tuned localkube for one workload shape (`isolato-bench pipeline`) as a
docs/benchmarks-log.md section: the analyses of the alternating runs (WORK/default-R.json,
WORK/tuned-R.json, TuneMain --max-changes 0), per repeat and as medians.
"""

from __future__ import annotations

import json
import statistics
from datetime import UTC, datetime
from pathlib import Path

STAGES = ("S1", "S2", "S3", "S4", "S5", "S6", "S7")


def first_iteration(work: Path, variant: str, repeat: int) -> dict:
    return json.loads((work / f"{variant}-{repeat}.json").read_text())["iterations"][0]


def report(
    work: Path,
    workloads: int,
    pods: int,
    repeats: int,
    tuned: list[str],
    machine: str,
    load0: str,
    load1: str,
    kwok: str = "",
) -> str:
    its = {
        (v, r): first_iteration(work, v, r)
        for v in ("default", "tuned")
        for r in range(1, repeats + 1)
    }
    med = statistics.median
    secs = {k: it["measuredSeconds"] for k, it in its.items()}
    red = [1 - secs["tuned", r] / secs["default", r] for r in range(1, repeats + 1)]
    dm = med(secs["default", r] for r in range(1, repeats + 1))
    tm = med(secs["tuned", r] for r in range(1, repeats + 1))
    pm = med(its["tuned", r]["predictedSeconds"] for r in range(1, repeats + 1))
    where = f" on {kwok} KWOK fake nodes" if kwok else ""
    env = f"KWOK_NODES={kwok} " if kwok else ""
    out = [
        f"### Deploy pipeline: {workloads} × {pods} pods{where}, default vs tuned —"
        f" {datetime.now(UTC):%Y-%m-%d %H:%M} UTC — {machine}",
        "",
        f"`{env}isolato-bench pipeline {workloads} {pods} {repeats} {' '.join(tuned)}`: the two"
        f" configurations alternate in one run (ABBA…), {repeats} measurements each; seconds from"
        f" the first create to the last pod Ready (traced). Load average at the start {load0}, at"
        f" the end {load1}: the 2 cores are shared with other work, so only ratios within this"
        " run mean something.",
        "",
        "| repeat | default (s) | tuned (s) | reduction | bottleneck default → tuned"
        " | model best case, tuned (s) | CPU control plane / node / host, tuned |",
        "|---|---|---|---|---|---|---|",
    ]

    def bottleneck(it: dict) -> str:
        return it["bottleneck"]["stage"] if it.get("bottleneck") else "-"

    for r, x in zip(range(1, repeats + 1), red, strict=True):
        d, t = its["default", r], its["tuned", r]
        c = t["cpu"]
        out.append(
            f"| {r} | {d['measuredSeconds']:.2f} | {t['measuredSeconds']:.2f} | {100 * x:.1f} % |"
            f" {bottleneck(d)} → {bottleneck(t)} | {t['predictedSeconds']:.2f} |"
            f" {100 * c['controlPlane']:.0f} / {100 * c['node']:.0f} / {100 * c['host']:.0f} % |"
        )

    def stage(v: str, s: str) -> float:
        return med(its[v, r]["measured"].get(s, 0.0) for r in range(1, repeats + 1))

    stages = " ".join(f"{s} {stage('default', s):.2f}/{stage('tuned', s):.2f}" for s in STAGES)
    spread = (max(red) - min(red)) / 2 if repeats > 1 else 0
    out += [
        "",
        f"Per-stage medians, default/tuned (s): {stages}.",
        "",
        f"Median default {dm:.2f} s, tuned {tm:.2f} s: **{100 * (1 - tm / dm):.1f} % less**"
        f" (per-repeat reductions {100 * min(red):.1f}\u2013{100 * max(red):.1f} %,"
        f" ± {100 * spread:.1f} points). Model best case (tuned, median) {pm:.2f} s ="
        f" {100 * (pm / tm - 1):+.0f} % of the tuned measurement.",
    ]
    return "\n".join(out) + "\n"
