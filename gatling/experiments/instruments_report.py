#!/usr/bin/env python3
"""The two instruments side by side, with what the pods saw (issue 13): one row per stored
calibration that was measured with INSTRUMENT=both.

usage: instruments_report.py [--write FILE.md ...]
Reads docs/results/<dir>/<class>.comparison.json and both runs (their hygiene carries the
capture at the pods, `wire`), prints a Markdown table and, with --write, puts it into each file
between the markers <!-- instruments:begin --> and <!-- instruments:end --> with the date and
the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from runner.compare import low_load_step

RESULTS = Path(__file__).resolve().parent.parent.parent / "docs" / "results"
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
BEGIN, END = "<!-- instruments:begin -->", "<!-- instruments:end -->"


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


def row(name: str, pods: str, comparison: Mapping[str, Any], gatling: Mapping, openloop: Mapping):
    """One table row: cut-offs, their difference, low-load p95 at the client and at the pod."""
    cut = comparison.get("cutoff") or {}
    g_low, g_h = _low(gatling)
    o_low, o_h = _low(openloop)
    g_wire, o_wire = g_h.get("wire") or {}, o_h.get("wire") or {}
    diff = f"{cut['diffPct']:+.1f} % (±{cut['toleranceRps']:g})" if cut else NONE
    knee = gatling["hygiene"].get("knee") or {}
    return (
        f"| {name} | {pods} | {fmt(comparison['openloop']['cutoffRps'])} | "
        f"{fmt(comparison['gatling']['cutoffRps'])} | {diff} | "
        f"{fmt(knee.get('resolutionPct'))} % | {o_low['offeredRps']:g} req/s: "
        f"{fmt(o_low['total']['p95'])} / {fmt(g_low['total']['p95'])} | "
        f"{fmt(o_wire.get('serviceP95Ms'))} / {fmt(g_wire.get('serviceP95Ms'))} | "
        f"{fmt(off_rate_pct(openloop))} / {fmt(off_rate_pct(gatling))} | "
        f"{comparison['verdict']} |"
    )


HEADER = (
    "| class | pods | referee cut-off (req/s) | Gatling cut-off | Gatling − referee (tolerance) "
    "| Gatling's bracket | low-load p95 at the client, referee / Gatling (ms) "
    "| same step at the pod (ms) | worst step off its rate at the pod, referee / Gatling (%) "
    "| verdict |\n|---|---|---|---|---|---|---|---|---|---|"
)


def table(entries: Sequence[tuple[str, str, Mapping, Mapping, Mapping]], base: Path) -> str:
    """The table, each class linked to its results directory relative to `base` (the folder of
    the file it goes into)."""
    rows = []
    for directory, pods, c, g, o in entries:
        link = os.path.relpath(RESULTS / directory, base)
        rows.append(row(f"[{c['sloClass']}]({link}/)", pods, c, g, o))
    return "\n".join([HEADER, *rows])


def load(results: Path = RESULTS) -> list[tuple[str, str, Mapping, Mapping, Mapping]]:
    out = []
    for directory, cls, pods in CALIBRATIONS:
        d = results / directory
        files = [d / f"{cls}.comparison.json", d / f"{cls}.json", d / f"{cls}.openloop.json"]
        if all(f.is_file() for f in files):
            c, g, o = (json.loads(f.read_text()) for f in files)
            out.append((directory, pods, c, g, o))
    return out


def replace_section(text: str, section: str, begin: str = BEGIN, end: str = END) -> str:
    """`text` with what lies between the markers replaced (the markers appended if absent)."""
    block = f"{begin}\n{section}\n{end}"
    if begin in text and end in text:
        return re.sub(re.escape(begin) + r".*?" + re.escape(end), lambda _: block, text, flags=re.S)
    return text.rstrip("\n") + "\n\n" + block + "\n"


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
    if not entries:
        print("no calibrations measured with both instruments under docs/results")
        return 1
    stamp = rendered_by("instruments_report.py")
    print(f"{stamp}\n\n{table(entries, RESULTS.parent)}")
    for f in args.write:
        section = f"{stamp}\n\n{table(entries, f.resolve().parent)}"
        f.write_text(replace_section(f.read_text(), section))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
