"""Gatling against the open-loop referee on the same pods (issue 13, item 2).

Goal: Gatling's cut-off within ±10 % of the open-loop one, or one ramp step if that is larger;
low-load p95 (each run's lowest-rate step) within 2 ms. Pure: the cut-offs come from the
controller's answers to the posted runs (its CutoffDetector is the one definition of a cut-off).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

CUTOFF_TOLERANCE = 0.10
LOW_LOAD_P95_MS = 2.0


def low_load_step(run: Mapping[str, Any]) -> Mapping[str, Any]:
    return min(run["steps"], key=lambda s: s["offeredRps"])


def compare(
    gatling_run: Mapping[str, Any],
    gatling_cutoff: float | None,
    openloop_run: Mapping[str, Any],
    openloop_cutoff: float | None,
    ramp_step: float,
) -> dict[str, Any]:
    """The comparison record: both cut-offs, their difference and tolerance, both low-load p95,
    and the verdict `agrees`, `disagrees` (with reasons) or `inconclusive` (a cut-off missing)."""
    g_low, o_low = low_load_step(gatling_run), low_load_step(openloop_run)
    p95_diff = round(g_low["total"]["p95"] - o_low["total"]["p95"], 3)
    out: dict[str, Any] = {
        "sloClass": gatling_run["sloClass"],
        "gatling": {"runId": gatling_run["runId"], "cutoffRps": gatling_cutoff},
        "openloop": {"runId": openloop_run["runId"], "cutoffRps": openloop_cutoff},
        "lowLoad": {
            "gatling": {"offeredRps": g_low["offeredRps"], "p95": g_low["total"]["p95"]},
            "openloop": {"offeredRps": o_low["offeredRps"], "p95": o_low["total"]["p95"]},
            "p95DiffMs": p95_diff,
            "goalMs": LOW_LOAD_P95_MS,
        },
    }
    reasons = []
    if g_low["offeredRps"] != o_low["offeredRps"]:
        reasons.append(
            "the low-load steps differ in rate "
            f"({g_low['offeredRps']} vs {o_low['offeredRps']} req/s)"
        )
    if abs(p95_diff) > LOW_LOAD_P95_MS:
        reasons.append(f"low-load p95 differs by {p95_diff} ms (goal within {LOW_LOAD_P95_MS} ms)")
    if gatling_cutoff is None or openloop_cutoff is None:
        missing = [
            n for n, c in (("gatling", gatling_cutoff), ("openloop", openloop_cutoff)) if c is None
        ]
        out["cutoff"] = None
        out["verdict"] = "inconclusive"
        out["reasons"] = [f"no cut-off measured by {', '.join(missing)}", *reasons]
        return out
    tolerance = max(CUTOFF_TOLERANCE * openloop_cutoff, ramp_step)
    diff = round(gatling_cutoff - openloop_cutoff, 3)
    out["cutoff"] = {
        "diffRps": diff,
        "diffPct": round(100 * diff / openloop_cutoff, 1),
        "toleranceRps": round(tolerance, 3),
    }
    if abs(diff) > tolerance:
        reasons.append(
            f"cut-off {gatling_cutoff} vs open-loop {openloop_cutoff} req/s: "
            f"{diff:+} beyond ±{tolerance:g}"
        )
    out["verdict"] = "disagrees" if reasons else "agrees"
    out["reasons"] = reasons
    return out


def lines(c: Mapping[str, Any]) -> list[str]:
    """The comparison as printed after a run with both instruments."""
    low = c["lowLoad"]
    cut = c.get("cutoff") or {}
    return [
        f"class {c['sloClass']}: Gatling vs open-loop: {c['verdict']}",
        f"  cut-off:      {c['gatling']['cutoffRps']} vs {c['openloop']['cutoffRps']} req/s"
        + (f" ({cut['diffPct']:+} %, tolerance ±{cut['toleranceRps']})" if cut else ""),
        f"  low-load p95: {low['gatling']['p95']} vs {low['openloop']['p95']} ms at "
        f"{low['openloop']['offeredRps']} req/s ({low['p95DiffMs']:+} ms, goal ±{low['goalMs']})",
        *(f"  - {r}" for r in c["reasons"]),
    ]
