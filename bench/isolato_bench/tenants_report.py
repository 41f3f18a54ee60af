"""Isolato's own deployment paths, default vs tuned (`isolato-bench tenants`), as a
docs/benchmarks-log.md section: the timings bench/sh/tenants-bench.sh measured per run
(WORK/timings.tsv: variant, repeat, new class, scale 1 → 10, N tenants, controller CPU, in
seconds) and the tracer's per-stage breakdown of each path (WORK/traces/<variant>-<repeat>.json,
PathTraceMain).
"""

from __future__ import annotations

import json
import statistics
from datetime import UTC, datetime
from pathlib import Path

VARIANTS = ("default", "tuned")
COLUMNS = ("cls", "scl", "secs", "ctl")


def timings(work: Path) -> dict[tuple[str, int], dict[str, float]]:
    out = {}
    for line in (work / "timings.tsv").read_text().splitlines():
        v, r, *values = line.split()
        out[v, int(r)] = dict(zip(COLUMNS, map(float, values), strict=True))
    return out


def median(xs) -> float:
    return statistics.median(list(xs))


def trace_table(traces: Path, repeats: int, n: int) -> list[str]:
    runs = {
        (v, r): {p["name"]: p for p in json.loads((traces / f"{v}-{r}.json").read_text())}
        for v in VARIANTS
        for r in range(1, repeats + 1)
        if (traces / f"{v}-{r}.json").exists()
    }
    titles = {
        "class": "new class",
        "single": "1 dedicated tenant alone (model input)",
        "tenants": f"{n} dedicated tenants",
        "scale": "pool scaled 1 → 10 (9 new pods)",
    }
    out = [
        "Traced (PathTraceMain: the pools' Deployments, ReplicaSets and pods watched from the API"
        " call until every new pod is Ready; S1 = call → pool namespace + namespace → Deployment,"
        " i.e. Isolato's reconcile and its writes; medians over the repeats; where the kubelet"
        " reported sandbox and containers in one status update, S5 holds both and S6 reads 0):",
        "",
        "| path | config | traced (s) | S1 (call → ns + ns → Deployment) | S2 | S3 | S4 | S5 | S6"
        " | S7 | best case (s) | bottleneck, measured vs predicted share | decision"
        " | CPU control plane / node / Isolato / host |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, title in titles.items():
        for v in VARIANTS:
            ps = [
                runs[v, r][name]
                for r in range(1, repeats + 1)
                if (v, r) in runs and name in runs[v, r]
            ]
            if not ps:
                continue

            def st(s, ps=ps):
                return median(p["stages"].get(s, 0.0) for p in ps)

            def cpu(k, ps=ps):
                return 100 * median(p["cpu"].get(k, 0.0) for p in ps)

            split = [p["s1Split"] for p in ps if p.get("s1Split")]
            s1 = f"{st('S1'):.2f}" + (
                f" ({median(x['toNamespace'] for x in split):.2f}"
                f" + {median(x['toWorkload'] for x in split):.2f})"
                if split
                else ""
            )
            best = [p["predictedSeconds"] for p in ps if p.get("predictedSeconds") is not None]
            bn = (
                ", ".join(
                    f"{b['stage']} {100 * b['measuredShare']:.0f}"
                    f" vs {100 * b['predictedShare']:.0f} %"
                    for b in (p["bottleneck"] for p in ps if p.get("bottleneck"))
                )
                or "\u2013"
            )
            dec = (
                ", ".join(
                    p["decision"]
                    + (
                        f" ({p['recommendation']['parameter']} → {p['recommendation']['to']:g})"
                        if p.get("recommendation")
                        else ""
                    )
                    for p in ps
                    if p.get("decision")
                )
                or "\u2013"
            )
            stages = " | ".join(f"{st(s):.2f}" for s in ("S2", "S3", "S4", "S5", "S6", "S7"))
            best_s = f"{median(best):.2f}" if best else "\u2013"
            out.append(
                f"| {title} | {v} | {median(p['tracedSeconds'] for p in ps):.2f} | {s1} |"
                f" {stages} | {best_s} | {bn} | {dec} | {cpu('controlPlane'):.0f} /"
                f" {cpu('node'):.0f} / {cpu('client'):.0f} / {cpu('host'):.0f} % |"
            )
    return out


def report(
    work: Path, n: int, repeats: int, tuned: list[str], machine: str, load0: str, load1: str
) -> str:
    t = timings(work)
    out = [
        f"### Isolato's own paths: a new class, its pool scaled 1 → 10, {n} dedicated tenants"
        f" onboarded at once, default vs tuned — {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
        f" — {machine}",
        "",
        f"`isolato-bench tenants {n} {repeats} {' '.join(tuned)}`: the configurations alternate"
        f" in one run (ABBA…), {repeats} runs each; seconds (watched: kubectl wait) from the class"
        " POST until its pool has a Ready pod, from the PUT of minReplicas = 10 until 10 pool"
        f" pods are Ready, and from the first tenant POST (10 clients) until all {n} are Serving."
        f" Load average at the start {load0}, at the end {load1}: a shared 2-core machine,"
        " compare within the run only.",
        "",
        f"| repeat | class default / tuned (s) | scale 1 → 10 default / tuned (s)"
        f" | {n} tenants default / tuned (s) | {n} tenants reduction |",
        "|---|---|---|---|---|",
    ]
    for r in range(1, repeats + 1):
        d, u = t["default", r], t["tuned", r]
        out.append(
            f"| {r} | {d['cls']:.2f} / {u['cls']:.2f} | {d['scl']:.2f} / {u['scl']:.2f}"
            f" | {d['secs']:.2f} / {u['secs']:.2f} | {100 * (1 - u['secs'] / d['secs']):.1f} % |"
        )
    out.append("")
    for label, col in (
        ("new class (pool Ready)", "cls"),
        ("pool scaled 1 → 10", "scl"),
        (f"{n} dedicated tenants Serving", "secs"),
        (f"the controller's CPU time (user + system) while the {n} were onboarded", "ctl"),
    ):
        md = median(t["default", r][col] for r in range(1, repeats + 1))
        mt = median(t["tuned", r][col] for r in range(1, repeats + 1))
        out.append(
            f"- {label}: median default {md:.2f} s, tuned {mt:.2f} s:"
            f" **{100 * (1 - mt / md):.1f} % less**"
        )
    out.append("")
    out += trace_table(work / "traces", repeats, n)
    return "\n".join(out) + "\n"
