#!/usr/bin/env python3
"""How a class's pods shared each step of stored runs (issue 13): the capture at the pods
(`wire.podArrivals`) beside the latency the generator and the pods measured.

usage: pod_split_report.py DIR... [--write FILE.md ...]
Each DIR holds runs (<class>.json, <class>.openloop.json) of a class with one or more pods,
measured with WIRE=on. Prints a Markdown table and, with --write, puts it into each file between
<!-- podsplit:begin --> and <!-- podsplit:end -->. A step is `uneven` by the runner's own rule
(runner.wire.contamination): its busiest pod received more than 25 % over its fair share.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from instruments_report import fmt, rendered_by, replace_section
from runner.wire import uneven_split

BEGIN, END = "<!-- podsplit:begin -->", "<!-- podsplit:end -->"
HEADER = (
    "| run | generator (arrivals, connections) | step | offered (req/s) | p95 at the client (ms) "
    "| p95 service at the pods (ms) | requests per pod | split |\n|---|---|---|---|---|---|---|---|"
)


def how_sent(run: Mapping[str, Any]) -> str:
    h = run["hygiene"]
    if h["instrument"] == "gatling":
        return "Gatling (even, shared pool)"
    return f"referee ({h.get('arrivals', 'even')}, {h.get('connections', 'reuse')})"


def rows(name: str, run: Mapping[str, Any]) -> list[str]:
    """One row per step with a capture at the pods, in send order."""
    by_index = {s["index"]: s for s in run["steps"]}
    out = []
    for h in sorted(run["hygiene"]["steps"], key=lambda h: h["index"]):
        w = h.get("wire")
        if not w or "podArrivals" not in w:
            continue
        uneven = uneven_split(h["index"], w["podArrivals"])
        out.append(
            f"| {name} | {how_sent(run)} | {h['index']} | {h['offeredRps']:g} | "
            f"{fmt(by_index[h['index']]['total']['p95'])} | {fmt(w.get('serviceP95Ms'))} | "
            f"{' / '.join(map(str, w['podArrivals']))} | {'uneven' if uneven else 'even'} |"
        )
    return out


def table(runs: Sequence[tuple[Path, Mapping[str, Any]]], base: Path) -> str:
    lines = [HEADER]
    for path, run in runs:
        link = os.path.relpath(path, base)
        lines += rows(f"[{path.parent.name}/{path.stem}]({link})", run)
    return "\n".join(lines)


def load(dirs: Sequence[Path]) -> list[tuple[Path, Mapping[str, Any]]]:
    out = []
    for d in dirs:
        for f in sorted(d.glob("*.json")):
            run = json.loads(f.read_text())
            if isinstance(run, dict) and "hygiene" in run and "steps" in run:
                out.append((f.resolve(), run))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", type=Path, nargs="+", help="directories of stored runs")
    ap.add_argument(
        "--write", type=Path, action="append", default=[], help="a Markdown file to put it into"
    )
    args = ap.parse_args(argv)
    runs = load(args.dirs)
    if not any(len(rows("", r)) for _, r in runs):
        print(f"no step captured at the pods (WIRE=on) in {', '.join(map(str, args.dirs))}")
        return 1
    stamp = rendered_by("pod_split_report.py")
    print(f"{stamp}\n\n{table(runs, Path.cwd())}")
    for f in args.write:
        section = f"{stamp}\n\n{table(runs, f.resolve().parent)}"
        f.write_text(replace_section(f.read_text(), section, BEGIN, END))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
