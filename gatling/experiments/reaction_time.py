#!/usr/bin/env python3
"""Reaction-time benchmark analysis (issue 12, item 4; `isolato-bench reaction-time`).

usage: reaction_time.py RESULT_DIR [LOG_MD]
       reaction_time.py --repeats LOG_MD RESULT_DIR...
RESULT_DIR holds one directory per autoscaler variant with meta.json (step time, rates,
target), base.csv and step.csv (openloop -samples: intended send time, latency, 2xx) and
replicas.txt (the Deployment watched: arrival time in ms, spec replicas, ready replicas).
Writes summary.json, table.md and reaction-time.png (class p95 per second and ready replicas
over time, one colour per variant; under docs/results/ for the stored results, runner.places)
into RESULT_DIR, and with LOG_MD writes its section "reaction-time" (runner.sections).
"""

from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from runner.places import plot_dir
from runner.sections import host_line, write_section

ORDER = ["hpa", "keda-default", "keda-tuned", "direct"]
LABELS = {
    "hpa": "CPU HPA (pivot)",
    "keda-default": "KEDA, defaults (30 s polling, 1 min rate)",
    "keda-tuned": "KEDA, tuned (HPA sync 1 s, 1 s scrapes, 5 s rate)",
    "direct": "direct path (1 Hz pod scrapes) + KEDA",
}
WINDOW_S = 1.0
GOAL_S = 5.0


# ---------------------------------------------------------------------------- pure


def p95(values: list[float]) -> float:
    """Nearest-rank 95th percentile (the smallest value with >= 95 % at or below it)."""
    s = sorted(values)
    return s[max(0, math.ceil(0.95 * len(s)) - 1)]


def windows(samples: list[tuple[float, float]], start: float, end: float, width: float = WINDOW_S):
    """[(window start relative to `start`, p95 ms, count)] of (time s, latency ms) samples by
    intended send time, for windows in [start, end); empty windows are left out."""
    buckets: dict[int, list[float]] = {}
    for t, lat in samples:
        if start <= t < end:
            buckets.setdefault(int((t - start) // width), []).append(lat)
    return [(k * width, p95(v), len(v)) for k, v in sorted(buckets.items())]


def recovered_at(series: list[tuple[float, float, int]], target_ms: float, after: float = 0.0):
    """Start of the first window from which every later window's p95 is within the target
    (0 when the target never broke); None when the last window is still over it."""
    last_bad = None
    for start, value, _ in series:
        if start >= after and value > target_ms:
            last_bad = start
    if last_bad is None:
        return 0.0
    later = [s for s, _, _ in series if s > last_bad]
    return later[0] if later else None


def first_above(events: list[tuple[float, int, int]], field: int, than: int, after: float):
    """Time of the first event at or after `after` whose field (1 = spec, 2 = ready) > than."""
    for e in events:
        if e[0] >= after and e[field] > than:
            return e[0]
    return None


@dataclass
class Result:
    variant: str
    scaled_s: float | None  # step -> the Deployment's replicas raised
    serving_s: float | None  # step -> a new replica ready (in the Service's endpoints)
    recovered_s: float | None  # step -> class p95 back under target for good
    peak_p95_ms: float
    over_target_pct: float  # requests of the hold over the target
    final_ready: int
    requests: int
    step_utc: str = ""  # when the step started (variants of one table may come from reruns)
    pods_at_step: int = 1  # ready pods when the step started (> 1: the test is void)


def analyse(variant: str, meta: dict, samples, events) -> Result:
    """samples: [(time s, latency ms)] of both streams; events: [(time s, spec, ready)]."""
    t0 = meta["stepUnixMs"] / 1000
    end = t0 + meta["holdSeconds"]
    series = windows(samples, t0, end)
    # the state at the step: the last event before it, else the watch's first event (its
    # initial state, listed when the watch started just before the step, may arrive after it)
    before = [e for e in events if e[0] <= t0]
    initial = before[-1] if before else (events[0] if events else (t0, 1, 1))
    spec0, ready0 = initial[1], initial[2]
    scaled = first_above(events, 1, spec0, t0)
    serving = first_above(events, 2, ready0, t0)
    hold = [lat for t, lat in samples if t0 <= t < end]
    rec = recovered_at(series, meta["targetMs"])
    return Result(
        variant=variant,
        scaled_s=None if scaled is None else round(scaled - t0, 2),
        serving_s=None if serving is None else round(serving - t0, 2),
        recovered_s=rec,
        peak_p95_ms=round(max((v for _, v, _ in series), default=0.0), 1),
        over_target_pct=round(
            100 * sum(lat > meta["targetMs"] for lat in hold) / max(1, len(hold)), 1
        ),
        final_ready=events[-1][2] if events else ready0,
        requests=len(hold),
        step_utc=time.strftime("%Y-%m-%d %H:%M", time.gmtime(t0)),
        pods_at_step=ready0,
    )


def fmt(v: float | None, unit: str = " s") -> str:
    return "never" if v is None else f"{v:g}{unit}"


def table(results: list[Result]) -> str:
    rows = [
        "| autoscaler | step → replicas raised | step → new replica serving"
        " | step → p95 back under target | peak p95 (1 s windows) | requests over target"
        " | ready pods at the step / end | step at (UTC) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        rows.append(
            f"| {LABELS.get(r.variant, r.variant)} | {fmt(r.scaled_s)} | {fmt(r.serving_s)}"
            f" | {fmt(r.recovered_s)}"
            f" | {r.peak_p95_ms:g} ms | {r.over_target_pct:g} %"
            f" | {r.pods_at_step} / {r.final_ready} | {r.step_utc} |"
        )
    return "\n".join(rows)


# ---------------------------------------------------------------------------- files


def read_samples(d: Path) -> list[tuple[float, float]]:
    out = []
    for name in ("base.csv", "step.csv"):
        f = d / name
        if f.exists():
            for line in f.read_text().splitlines()[1:]:
                due, lat, _ok = line.split(",")
                out.append((int(due) / 1000, float(lat)))
    return out


def read_events(d: Path) -> list[tuple[float, int, int]]:
    out = []
    for line in (d / "replicas.txt").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1].isdigit():
            out.append(
                (int(parts[0]) / 1000, int(parts[1]), int(parts[2]) if len(parts) > 2 else 0)
            )
    return out


def plot(result_dir: Path, data: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, axr) = plt.subplots(2, 1, figsize=(10, 7), sharex=True, height_ratios=[3, 1])
    target = None
    for v, (meta, samples, events) in data.items():
        t0 = meta["stepUnixMs"] / 1000
        target = meta["targetMs"]
        series = windows(samples, t0 - 15, t0 + meta["holdSeconds"])
        (line,) = ax.plot(
            [s - 15 for s, _, _ in series], [p for _, p, _ in series], label=LABELS.get(v, v)
        )
        axr.plot(*ready_steps(events, t0, -15.0, meta["holdSeconds"]), color=line.get_color())
    finish_latency_plot(
        fig, ax, axr, target, "Load step 0.5x -> 2.5x of one pod's cut-off at t = 0",
        "class p95 per 1 s (ms, log)", "seconds since the step",
    )  # fmt: skip
    fig.savefig(plot_dir(result_dir) / "reaction-time.png", dpi=110)


def ready_steps(events, t0: float, start: float, end: float) -> tuple[list[float], list[int]]:
    """Ready replicas over time as a step line from `start` to `end` seconds around t0 (events:
    [(time s, spec, ready)], stamped on arrival)."""
    xs, ys = [start], [events[0][2] if events else 1]
    for t, _spec, ready in events:
        xs += [t - t0, t - t0]
        ys += [ys[-1], ready]
    xs.append(end)
    ys.append(ys[-1])
    return xs, ys


def finish_latency_plot(fig, ax, axr, target, title: str, ylabel: str, xlabel: str) -> None:
    """The p95-over-time figure's common dressing: the target, t = 0, a log latency axis, the
    ready-pods axis below."""
    if target is not None:
        ax.axhline(
            target, color="k", linestyle="--", linewidth=1, label=f"p95 target {target:g} ms"
        )
    ax.axvline(0, color="grey", linewidth=1)
    axr.axvline(0, color="grey", linewidth=1)
    ax.set_yscale("log")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    axr.set_ylabel("ready pods")
    axr.set_xlabel(xlabel)
    fig.tight_layout()


def section(results: list[Result], meta: dict, host: str) -> str:
    return "\n".join(
        [
            "## Reaction time",
            "",
            f"{host}. `make bench-reaction-time` (`isolato-bench reaction-time`):"
            f" one class of 200m pods, p95 target {meta['targetMs']} ms, cut-off"
            f" {meta['cutoffRps']} req/s per pod (measured, Model accuracy above), pivot"
            f" {meta['pivotPercent']} %; open-loop load {meta['lowRps']} → {meta['highRps']} req/s"
            f" (0.5× → 2.5× of one pod's cut-off) held {meta['holdSeconds']} s; the"
            " four autoscalers one after the other (a rerun of one variant shows in its step"
            " time). Raw data, plot:"
            " [results/reaction-time](../results/reaction-time/).",
            "",
            table(results),
            "",
            "![latency over time](results/reaction-time/reaction-time.png)",
            "",
            f"Goal: new capacity serving ≤ {GOAL_S:g} s after the step. Errors: replica times"
            " are watch events stamped on arrival at the host (≤ 0.1 s late); the step time is"
            " taken just before the step's generator starts (≤ 0.05 s early); p95 recovery is"
            " at 1 s window resolution (±1 s). One run per variant on a shared 2-core machine:"
            " differences below a few seconds between"
            " variants are within run-to-run noise (not repeated).",
            "",
        ]
    )


KEY, REPEATS_KEY = "reaction-time", "reaction-time-repeats"  # the sections' markers
REPEATS_TITLE = "## Reaction time, repeated"


def repeats_table(runs: list[list[dict]]) -> str:
    """Step → new replica serving per variant over repeated runs (each run: a summary.json
    list); with n runs the largest is the empirical p(1 - 1/n) bound the goal is checked on."""
    by: dict[str, list[float | None]] = {}
    for run in runs:
        for r in run:
            if r.get("pods_at_step", 1) == 1:  # a run that did not start from one pod is void
                by.setdefault(r["variant"], []).append(r["serving_s"])
    rows = [
        "| autoscaler | runs | step → new replica serving, each run | median | worst"
        f" | goal ≤ {GOAL_S:g} s in every run |",
        "|---|---|---|---|---|---|",
    ]
    for v in [v for v in ORDER if v in by]:
        xs = by[v]
        done = sorted(x for x in xs if x is not None)
        worst = None if len(done) < len(xs) else done[-1]
        median = done[len(done) // 2] if len(done) == len(xs) else None
        rows.append(
            f"| {LABELS[v]} | {len(xs)} | {', '.join(fmt(x) for x in xs)} | {fmt(median)}"
            f" | {fmt(worst)} | {'yes' if worst is not None and worst <= GOAL_S else 'no'} |"
        )
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--repeats"]:
        return main_repeats(argv[1:])
    if len(argv) not in (1, 2):
        print(__doc__, file=sys.stderr)
        return 2
    result_dir = Path(argv[0])
    data = {}
    for v in ORDER:
        d = result_dir / v
        if (d / "meta.json").exists():
            data[v] = (json.loads((d / "meta.json").read_text()), read_samples(d), read_events(d))
    if not data:
        print(f"reaction_time.py: no variant results under {result_dir}", file=sys.stderr)
        return 1
    results = [analyse(v, *data[v]) for v in data]
    (result_dir / "summary.json").write_text(
        json.dumps([asdict(r) for r in results], indent=2) + "\n"
    )
    (result_dir / "table.md").write_text(table(results) + "\n")
    plot(result_dir, data)
    print(table(results))
    if len(argv) == 2:
        write_section(
            Path(argv[1]), section(results, next(iter(data.values()))[0], host_line()), KEY
        )
    return 0


def main_repeats(argv: list[str]) -> int:
    """--repeats LOG_MD RESULT_DIR...: the serving times of every run side by side."""
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    md, dirs = Path(argv[0]), [Path(d) for d in argv[1:]]
    runs = [json.loads((d / "summary.json").read_text()) for d in dirs]
    text = repeats_table(runs)
    print(text)
    section_text = "\n".join(
        [
            REPEATS_TITLE,
            "",
            f"{host_line()}. The step of the section above, repeated: every run of"
            f" {', '.join(str(d) for d in dirs)} (`reaction_time.py --repeats`); a run whose pool"
            " did not stand at one pod at the step is left out. Errors as above (±0.1 s).",
            "",
            text,
            "",
        ]
    )
    write_section(md, section_text, REPEATS_KEY)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
