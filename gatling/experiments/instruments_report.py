#!/usr/bin/env python3
"""The two instruments side by side, with what the pods saw (issue 13): one row per stored
calibration that was measured with INSTRUMENT=both (the listed ones, then any other stored
cut-off comparison, e.g. colocated and finding3), and one row per step of every experiment that
does not calibrate (aggressive, verify: each tenant's p95 by both, runner/compare.compare_steps).

usage: instruments_report.py [--write FILE.md ...]
Reads results/<dir>/<class>.comparison.json and both runs (their hygiene carries the
capture at the pods, `wire`), prints a Markdown table and, with --write, puts it into each file
between the markers <!-- instruments:begin --> and <!-- instruments:end --> with the date and
the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from runner.compare import LOW_LOAD_P95_MS, ci_text, low_load_step
from runner.knee import ci_overlap, p95_ci
from runner.places import RESULTS
from runner.sections import write_section

CALIBRATIONS = (
    ("gold-alone", "gold", "1 × 400m"),
    ("bronze-alone", "bronze", "1 × 100m"),
    ("model-accuracy/replicas-1", "acc1", "1 × 200m"),
    ("model-accuracy/replicas-2", "acc2", "2 × 200m"),
    ("model-accuracy/replicas-3", "acc3", "3 × 200m"),
    ("model-accuracy-100m/replicas-1", "acc1", "1 × 100m"),
    ("model-accuracy-100m/replicas-2", "acc2", "2 × 100m"),
    ("model-accuracy-100m/replicas-3", "acc3", "3 × 100m"),
)
KEY = "instruments"  # the section's markers: <!-- instruments:begin --> … :end -->


def _low(run: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """The comparison's low-load step and its hygiene record."""
    step = low_load_step(run)
    return step, run["hygiene"]["steps"][run["steps"].index(step)]


NONE = "n/a"


def fmt(x: float | None, digits: int = 1) -> str:
    return NONE if x is None else f"{x:.{digits}f}"


def off_rate_pct(run: Mapping[str, Any]) -> float | None:
    """The largest difference between a step's arrival rate at the pods and its offered rate,
    in % (None without a capture)."""
    devs = [
        abs(w["sentRps"] - w["offeredRps"]) / w["offeredRps"] * 100
        for h in run["hygiene"]["steps"]
        if (w := h.get("wire")) and w.get("sentRps") is not None
    ]
    return round(max(devs), 1) if devs else None


def cpu_ms(run: Mapping[str, Any]) -> float | None:
    """What a request cost the pods in CPU (hygiene.podCpu; None for runs stored before it)."""
    return (run["hygiene"].get("podCpu") or {}).get("msPerRequest")


def row(name: str, pods: str, comparison: Mapping[str, Any], gatling: Mapping, openloop: Mapping):
    """One table row: cut-offs, their difference, low-load p95 at the client and at the pod."""
    cut = comparison.get("cutoff") or {}
    g_low, g_h = _low(gatling)
    o_low, o_h = _low(openloop)
    g_wire, o_wire = g_h.get("wire") or {}, o_h.get("wire") or {}
    knee = gatling["hygiene"].get("knee") or {}
    if "heldToRps" in cut:  # neither run reached the knee: both cut-offs are lower bounds
        referee = ours = f"≥ {cut['heldToRps']:g} (held)"
        diff = "both held to the ramp's top"
    else:
        referee = fmt(comparison["openloop"]["cutoffRps"])
        ours = fmt(comparison["gatling"]["cutoffRps"])
        diff = f"{cut['diffPct']:+.1f} % (±{cut['toleranceRps']:g})" if cut else NONE
    return (
        f"| {name} | {pods} | {referee} | {ours} | {diff} | "
        f"{fmt(knee.get('resolutionPct'))} % | {o_low['offeredRps']:g} req/s: "
        f"{fmt(o_low['total']['p95'])} {ci_text(p95_ci(o_low['total']))} / "
        f"{fmt(g_low['total']['p95'])} {ci_text(p95_ci(g_low['total']))} | "
        f"{fmt(o_wire.get('serviceP95Ms'))} / {fmt(g_wire.get('serviceP95Ms'))} | "
        f"{fmt(off_rate_pct(openloop))} / {fmt(off_rate_pct(gatling))} | "
        f"{fmt(cpu_ms(openloop), 2)} / {fmt(cpu_ms(gatling), 2)} | "
        f"{verdict(comparison['verdict'], o_low['total'], g_low['total'])} |"
    )


def verdict(text: str, o_total: Mapping[str, Any], g_total: Mapping[str, Any]) -> str:
    """The stored verdict, and for a low-load difference over the goal whether the two p95s'
    confidence intervals overlap (then it is within the sampling error)."""
    if abs(g_total["p95"] - o_total["p95"]) <= LOW_LOAD_P95_MS:
        return text
    within = ci_overlap(p95_ci(o_total), p95_ci(g_total))
    return f"{text} (low-load Δ {'within' if within else 'beyond'} the CIs)"


HEADER = (
    "| class | pods | referee cut-off (req/s) | Gatling cut-off | Gatling − referee (tolerance) "
    "| Gatling's bracket | low-load p95 [its 95 % CI] at the client, referee / Gatling (ms) "
    "| same step at the pod (ms) | worst step off its rate at the pod, referee / Gatling (%) "
    "| pod CPU per request, referee / Gatling (ms) "
    "| verdict |\n|---|---|---|---|---|---|---|---|---|---|---|"
)


def table(entries: Sequence[tuple[str, str, Mapping, Mapping, Mapping]], base: Path) -> str:
    """The table, each class linked to its results directory relative to `base` (the folder of
    the file it goes into)."""
    rows = []
    for directory, pods, c, g, o in entries:
        link = os.path.relpath(RESULTS / directory, base)
        rows.append(row(f"[{c['sloClass']}]({link}/)", pods, c, g, o))
    return "\n".join([HEADER, *rows])


def pods_of(run: Mapping[str, Any]) -> str:
    """`replicas × podCpu` from a run's context (what CALIBRATIONS spells out)."""
    ctx = run.get("context", {})
    return f"{ctx.get('replicas', '?')} × {ctx.get('podCpu', '?')}"


def _stored(results: Path) -> list[tuple[str, Mapping, Mapping, Mapping]]:
    """Every stored comparison with both runs: (directory, comparison, Gatling's, referee's)."""
    out = []
    for f in sorted(results.rglob("*.comparison.json")):
        cls = f.name.removesuffix(".comparison.json")
        g, o = f.with_name(f"{cls}.json"), f.with_name(f"{cls}.openloop.json")
        if g.is_file() and o.is_file():
            c, gr, orun = (json.loads(x.read_text()) for x in (f, g, o))
            out.append((f.parent.relative_to(results).as_posix(), c, gr, orun))
    return out


def load(results: Path = RESULTS) -> list[tuple[str, str, Mapping, Mapping, Mapping]]:
    """The cut-off comparisons: CALIBRATIONS in their order, then the others found."""
    found = {(d, c["sloClass"]): (d, c, g, o) for d, c, g, o in _stored(results)}
    out = []
    for directory, cls, pods in CALIBRATIONS:
        if (hit := found.pop((directory, cls), None)) is not None:
            out.append((directory, pods, *hit[1:]))
    for d, c, g, o in found.values():
        if c.get("kind") != "steps":
            out.append((d, pods_of(g), c, g, o))
    return out


STEP_HEADER = (
    "| experiment | class | step | offered (req/s) | p95 per tenant, referee / Gatling (ms) "
    "| verdict |\n|---|---|---|---|---|---|"
)


def step_rows(directory: str, c: Mapping[str, Any], link: str) -> list[str]:
    """One row per step of a step comparison; a cell that disagrees is marked (!), and a
    comparison of different pods says so."""
    rows = []
    for s in c["steps"]:
        cells = ", ".join(
            f"{t} {fmt(v['openloop'])} / {fmt(v['gatling'])}{'' if v['agrees'] else ' (!)'}"
            for t, v in s["tenants"].items()
        )
        off = [v for v in s["tenants"].values() if not v["agrees"]]
        verdict = "agrees" if not off else "disagrees"
        if off and all(v.get("ciOverlap") for v in off):
            verdict += " (the differing p95s within their 95 % CIs)"
        if c.get("verdict") == "inconclusive":  # the cells compare different pods (compare.py)
            verdict = f"inconclusive: {c['reasons'][0]} (cells: {verdict})"
        rows.append(
            f"| [{directory}]({link}/) | {c['sloClass']} | {s['index']} | {s['offeredRps']:g} | "
            f"{cells} | {verdict} |"
        )
    return rows


def step_table(results: Path, base: Path) -> str:
    """The step comparisons' table (empty without any), with the rule they are judged by."""
    rows, rule = [], None
    for d, c, _, _ in _stored(results):
        if c.get("kind") == "steps":
            rows += step_rows(d, c, os.path.relpath(results / d, base))
            rule = c["rule"]["text"]
    if not rows:
        return ""
    return f"Experiments that do not calibrate, step by step (agree: {rule}):\n\n" + "\n".join(
        [STEP_HEADER, *rows]
    )


def rendered_by(script: str) -> str:
    """The line saying when, where and by what a table was rendered."""
    return (
        f"Rendered {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {platform.node()}, "
        f"{os.cpu_count()} CPUs, by `gatling/experiments/{script}` from the stored runs."
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--write", type=Path, action="append", default=[], help="a Markdown file to put it into"
    )
    args = ap.parse_args()
    entries = load()
    if not entries and not step_table(RESULTS, RESULTS.parent):
        print("no experiments measured with both instruments under results/")
        return 1
    stamp = rendered_by("instruments_report.py")

    def section(base: Path) -> str:
        steps = step_table(RESULTS, base)
        return f"{stamp}\n\n{table(entries, base)}" + (f"\n\n{steps}" if steps else "")

    print(section(RESULTS.parent))
    for f in args.write:
        write_section(f, section(f.resolve().parent), KEY)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
