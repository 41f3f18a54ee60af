"""Compares the stored runs of a results directory again, without a cluster or an API: each
`<class>.comparison.json` is rewritten from the class's two runs, a cut-off comparison with the
controller's stored answers to them (`<class>.response.json`, `<class>.openloop.response.json`),
a step comparison against its stored target, so a change of the comparison's rule reaches
results measured before it.
"""

from __future__ import annotations

import json
from pathlib import Path

from .compare import compare, compare_steps, cutoff_of, lines, rate_step, step_lines
from .run import write_json


class RecompareError(Exception):
    pass


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise RecompareError(f"cannot read {path}: {e}") from None


def recompare(directory: Path) -> list[str]:
    """Rewrites the directory's comparisons; returns what they print. The minimum
    tolerance is the runs' smallest rate increment (rate_step), the ramp's step unless a
    bisection probe fell between its two lowest steps."""
    out: list[str] = []
    found = sorted(directory.glob("*.comparison.json"))
    if not found:
        raise RecompareError(f"no *.comparison.json in {directory}")
    for f in found:
        old = _read(f)
        cls = f.name.removesuffix(".comparison.json")
        g, o = _read(f.with_name(f"{cls}.json")), _read(f.with_name(f"{cls}.openloop.json"))
        if old.get("kind") == "steps":
            c = compare_steps(g, o, float(old["rule"]["targetMs"]))
            write_json(f, c)
            out += [f"{f}:", *step_lines(c)]
            continue
        g_cut, g_held = cutoff_of(_read(f.with_name(f"{cls}.response.json")))
        o_cut, o_held = cutoff_of(_read(f.with_name(f"{cls}.openloop.response.json")))
        c = compare(g, g_cut, o, o_cut, rate_step(g), held_to=(g_held, o_held))
        write_json(f, c)
        out += [f"{f}:", *lines(c)]
    return out
