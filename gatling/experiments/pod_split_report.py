#!/usr/bin/env python3
"""How a class's pods shared the steps of stored runs (issue 13): the capture at the pods
(`wire.podArrivals`) beside each run's cut-off and knee bracket.

usage: pod_split_report.py DIR... [--write FILE.md ...]
Each DIR holds runs (<class>.json, <class>.openloop.json) of a class with one or more pods,
measured with WIRE=on. Prints a Markdown table and, with --write, puts it into each file between
<!-- podsplit:begin --> and <!-- podsplit:end -->, one row per run. A step is split unevenly by
the runner's own rule (runner.wire.contamination): its busiest pod received more than 25 % over
its fair share. The cut-off is the controller's answer to the run (<run>.response.json).
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from instruments_report import NONE, fmt, rendered_by
from runner.sections import write_section
from runner.wire import uneven_split

KEY = "podsplit"  # the section's markers: <!-- podsplit:begin --> … :end -->
HEADER = (
    "| run | generator (arrivals, connections) | pods | cut-off (req/s) | knee bracket (req/s) "
    "| steps split unevenly / captured | worst split (offered req/s: requests per pod) "
    "| split at the cut-off |\n|---|---|---|---|---|---|---|---|"
)


def how_sent(run: Mapping[str, Any]) -> str:
    h = run["hygiene"]
    if h["instrument"] == "gatling":  # runs before 2026-11-24 did not record it: shared
        per_request = h.get("connections") == "per-request"
        return f"Gatling (even, {'per-request' if per_request else 'shared pool'})"
    return f"referee ({h.get('arrivals', 'even')}, {h.get('connections', 'reuse')})"


def _share(per_pod: Sequence[int]) -> float:
    return max(per_pod) / sum(per_pod) if sum(per_pod) else 0.0


def row(name: str, run: Mapping[str, Any], cutoff: float | str | None) -> str | None:
    """One run: how many of its captured steps the pods shared unevenly (the runner's own rule),
    the most uneven one and the split at the cut-off's rate; None without a capture."""
    captured = [
        (h["offeredRps"], w["podArrivals"], uneven_split(h["index"], w["podArrivals"]))
        for h in run["hygiene"]["steps"]
        if (w := h.get("wire")) and w.get("podArrivals")
    ]
    if not captured:
        return None
    pods = len(captured[0][1])
    worst = max(captured, key=lambda c: _share(c[1]))
    at_cutoff = [c for c in captured if c[0] == cutoff]
    bracket = (run["hygiene"].get("knee") or {}).get("bracket")

    def split(c: tuple[float, Sequence[int], str | None]) -> str:
        return f"{c[0]:g}: {' / '.join(map(str, c[1]))}"

    return (
        f"| {name} | {how_sent(run)} | {pods} | "
        f"{fmt(cutoff) if not isinstance(cutoff, str) else cutoff} | "
        f"{' to '.join(f'{b:g}' for b in bracket) if bracket else NONE} | "
        f"{sum(1 for c in captured if c[2])} / {len(captured)} | "
        f"{split(worst) if pods > 1 else NONE} | "
        f"{split(at_cutoff[-1]) if at_cutoff and pods > 1 else NONE} |"
    )


def table(runs: Sequence[tuple[Path, Mapping[str, Any], float | str | None]], base: Path) -> str:
    lines = [HEADER]
    for path, run, cutoff in runs:
        link = os.path.relpath(path, base)
        name = f"{path.parent.parent.name}/{path.parent.name}/{path.stem}"
        if line := row(f"[{name}]({link})", run, cutoff):
            lines.append(line)
    return "\n".join(lines)


def load(dirs: Sequence[Path]) -> list[tuple[Path, Mapping[str, Any], float | str | None]]:
    """Each stored run with the cut-off the controller answered for it (<run>.response.json):
    its rate, or the status when it found none."""
    out = []
    for d in dirs:
        for f in sorted(d.glob("*.json")):
            run = json.loads(f.read_text())
            if isinstance(run, dict) and "hygiene" in run and "steps" in run:
                answer = f.with_name(f.stem + ".response.json")
                cutoff: float | str | None = None
                if answer.is_file():
                    found = json.loads(answer.read_text()).get("cutoff") or {}
                    cutoff = found.get("cutoffRps", found.get("status"))
                out.append((f.resolve(), run, cutoff))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", type=Path, nargs="+", help="directories of stored runs")
    ap.add_argument(
        "--write", type=Path, action="append", default=[], help="a Markdown file to put it into"
    )
    args = ap.parse_args(argv)
    runs = load(args.dirs)
    if not any(row("", r, c) for _, r, c in runs):
        print(f"no step captured at the pods (WIRE=on) in {', '.join(map(str, args.dirs))}")
        return 1
    stamp = rendered_by("pod_split_report.py")
    print(f"{stamp}\n\n{table(runs, Path.cwd())}")
    for f in args.write:
        section = f"{stamp}\n\n{table(runs, f.resolve().parent)}"
        write_section(f, section, KEY)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
