"""Where an onboarding's time goes: splits each sequential onboarding of `isolato-bench onboarding`
(run with PROFILE=DIR) into the controller's steps, from the controller's DEBUG log and the
client's wall-clock marks (DIR/sequential.json), and draws the median of each step as an SVG bar.

Steps (each from the first matching log line after the previous step, within the onboarding):
POST → 201; 201 → the class pass that writes the pool spec starts; the pass writes the spec; the
pool reconciler starts (watch and any rate limit); its objects (the workflow: ConfigMap write);
the table push (EndpointSlice read, HTTP to the pods); the pool status, its watch event, the class
pass and the tenant status write; the watching client sees Serving."""

import argparse
import itertools
import json
import re
import statistics
from datetime import datetime
from pathlib import Path

LINE = re.compile(r"^(\S+Z) +DEBUG .*? : (.*)$")

STEPS = [
    ("api", "POST → 201 (authentication, admission, Tenant create)"),
    ("to_class", "201 → class pass starts (Tenant watch, queue)"),
    ("class", "class pass → pool spec written (plan, SSA write)"),
    ("to_pool", "spec written → pool pass starts (watch, rate limit)"),
    ("objects", "pool objects before the push (workflow, ConfigMap write; 0 beside an early push)"),
    ("push", "table push, what is left of it after the objects (EndpointSlices, HTTP PUT)"),
    (
        "status",
        "pushed → tenant status written (the pool pass's write; before: pool status, class pass)",
    ),
    ("to_client", "status written → watching client sees Serving"),
]


def events(log_text: str) -> list[tuple[float, str]]:
    out = []
    for line in log_text.splitlines():
        m = LINE.match(line)
        if m:
            t = datetime.fromisoformat(m.group(1).replace("Z", "+00:00")).timestamp()
            out.append((t, m.group(2)))
    return out


def first(evs, after: float, until: float, pred) -> float | None:
    return next((t for t, msg in evs if after <= t <= until and pred(msg)), None)


def last(evs, after: float, until: float, pred) -> float | None:
    found = [t for t, msg in evs if after <= t <= until and pred(msg)]
    return found[-1] if found else None


def split(evs, mark: dict) -> dict[str, float] | None:
    """One onboarding's steps in ms, or None when a step's log line is missing."""
    tid, post, acc, seen = mark["tenant"], mark["post"], mark["accepted"], mark["seen"]
    # the log has ms precision, and its line of the status write may follow the watch event
    lo, hi = post - 0.002, seen + 0.05
    status = first(
        evs, lo, hi, lambda m: m.startswith(f"tenant {tid}: ") and "Serving written" in m
    )
    if status is None:
        return None
    spec = last(evs, lo, status, lambda m: m.endswith("tenants") and ": spec written, " in m)
    if spec is None:
        return None
    cls = last(evs, lo, spec, lambda m: ": pass over " in m)
    # the pool pass may log its start before the class pass logs its write returned
    pool = first(evs, cls or spec, status, lambda m: ": generation " in m)
    # the push may finish before the objects (it runs beside them once the pool is applied), and
    # since the pool pass writes the tenant's Serving after its push, so may the status: then the
    # objects were no step of the chain
    pushed = first(evs, pool or spec, status, lambda m: ": table pushed to " in m)
    if None in (cls, pool, pushed):
        return None
    objects = first(evs, pool, pushed, lambda m: m.endswith(": objects reconciled")) or pool
    marks = [post, acc, cls, spec, pool, objects, pushed, status, seen]
    # steps that overlap (a class pass started before the client read the 201, a pool pass before
    # the class logged its write) count from the later mark: the steps add up to the total
    for i in range(1, len(marks)):
        marks[i] = max(marks[i], marks[i - 1])
    return {
        name: (b - a) * 1000
        for (name, _), (a, b) in zip(STEPS, itertools.pairwise(marks), strict=True)
    }


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def summary(log_text: str, marks: list[dict]) -> tuple[list[dict], int]:
    evs = events(log_text)
    rows = [r for r in (split(evs, m) for m in marks) if r is not None]
    return rows, len(marks) - len(rows)


def table(rows: list[dict]) -> list[str]:
    out = ["| step | p50 ms | p95 ms | mean ms | share of the mean |", "|---|---|---|---|---|"]
    total = sum(statistics.mean(r[k] for r in rows) for k, _ in STEPS)
    for key, label in STEPS:
        xs = [r[key] for r in rows]
        m = statistics.mean(xs)
        out.append(
            f"| {label} | {pct(xs, 50):.1f} | {pct(xs, 95):.1f} | {m:.1f} | {m / total:.0%} |"
        )
    ends = [sum(r.values()) for r in rows]
    out.append(
        f"| **POST → client sees Serving** | {pct(ends, 50):.1f} | {pct(ends, 95):.1f} "
        f"| {statistics.mean(ends):.1f} | 100% |"
    )
    return out


COLOURS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f"]


def svg(runs: list[tuple[str, list[dict]]]) -> str:
    """One horizontal bar per run: the mean of each step, stacked (1 px per ms, scaled)."""
    means = [[statistics.mean(r[k] for r in rows) for k, _ in STEPS] for _, rows in runs]
    widest = max(sum(m) for m in means)
    scale = 900 / widest
    h = 40 + 44 * len(runs) + 20 * len(STEPS)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="960" height="{h}" '
        'font-family="sans-serif" font-size="12">',
        '<text x="10" y="18" font-size="14">Onboarding into an existing class: mean ms per step '
        "(POST → a watching client sees Serving)</text>",
    ]
    for i, ((name, _), m) in enumerate(zip(runs, means, strict=True)):
        # the run's name above its bar
        y, x = 48 + 44 * i, 10.0
        parts.append(f'<text x="10" y="{y - 4}">{name} ({sum(m):.0f} ms)</text>')
        for j, v in enumerate(m):
            w = v * scale
            parts.append(
                f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="24" fill="{COLOURS[j]}">'
                f"<title>{STEPS[j][1]}: {v:.1f} ms</title></rect>"
            )
            if w > 28:
                parts.append(f'<text x="{x + 3:.1f}" y="{y + 16}" fill="white">{v:.0f}</text>')
            x += w
    y0 = 54 + 44 * len(runs)
    for j, (_, label) in enumerate(STEPS):
        parts.append(
            f'<rect x="10" y="{y0 + 20 * j}" width="14" height="14" fill="{COLOURS[j]}"/>'
            f'<text x="30" y="{y0 + 20 * j + 11}">{label}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def parser(add_help: bool = True) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], add_help=add_help)
    p.add_argument(
        "runs",
        nargs="+",
        help="NAME=DIR: a PROFILE directory of `onboarding` (controller.log, "
        "sequential.json), named for the drawing",
    )
    p.add_argument("--svg", type=Path, help="write the drawing here")
    return p


def main(argv: list[str] | None = None) -> list[str]:
    a = parser().parse_args(argv)
    runs, text = [], []
    for spec in a.runs:
        name, _, d = spec.partition("=")
        rows, missing = summary(
            Path(d, "controller.log").read_text(),
            json.loads(Path(d, "sequential.json").read_text()),
        )
        if not rows:
            raise SystemExit(f"{d}: no onboarding with every step in the log")
        runs.append((name, rows))
        text += [f"\n{name}: {len(rows)} onboardings ({missing} without every step logged)\n"]
        text += table(rows)
    print("\n".join(text))
    if a.svg:
        a.svg.write_text(svg(runs))
    return text


if __name__ == "__main__":
    main()
