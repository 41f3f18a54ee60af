"""Gatling against the open-loop referee on the same pods (issue 13, item 2).

Experiments that calibrate: Gatling's cut-off within ±10 % of the open-loop one, or one ramp
step if that is larger; low-load p95 (each run's lowest-rate step) within 2 ms. Pure: the
cut-offs come from the controller's answers to the posted runs (its CutoffDetector is the one
definition of a cut-off). Experiments that do not calibrate: each step's per-tenant p95 side by
side (compare_steps).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .knee import ci_overlap, p95_ci

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
    held_to: tuple[float | None, float | None] = (None, None),
) -> dict[str, Any]:
    """The comparison record: both cut-offs, their difference and tolerance, both low-load p95,
    and the verdict `agrees`, `disagrees` (with reasons) or `inconclusive` (a cut-off missing, or
    the class's pods changed: pods_changed). held_to is (Gatling's, the referee's) top rate when
    its run held the SLO at every step (the controller's `not-reached`): two such runs up to the
    same rate agree that the knee lies above it, a lower bound (cutoff.heldToRps)."""
    g_low, o_low = low_load_step(gatling_run), low_load_step(openloop_run)
    p95_diff = round(g_low["total"]["p95"] - o_low["total"]["p95"], 3)
    g_ci, o_ci = p95_ci(g_low["total"]), p95_ci(o_low["total"])
    out: dict[str, Any] = {
        "sloClass": gatling_run["sloClass"],
        "gatling": {"runId": gatling_run["runId"], "cutoffRps": gatling_cutoff},
        "openloop": {"runId": openloop_run["runId"], "cutoffRps": openloop_cutoff},
        "lowLoad": {
            "gatling": {"offeredRps": g_low["offeredRps"], "p95": g_low["total"]["p95"]},
            "openloop": {"offeredRps": o_low["offeredRps"], "p95": o_low["total"]["p95"]},
            "p95DiffMs": p95_diff,
            "goalMs": LOW_LOAD_P95_MS,
            "ciOverlap": ci_overlap(g_ci, o_ci),
        },
    }
    for name, ci in (("gatling", g_ci), ("openloop", o_ci)):
        out["lowLoad"][name]["p95Ci"] = [ci["lowMs"], ci["highMs"]]
        out["lowLoad"][name]["p95CiExact"] = ci["exact"]
    # what a request cost the pods under each generator (hygiene.podCpu): explains, not judged
    cpu = {
        name: (run.get("hygiene", {}).get("podCpu") or {}).get("msPerRequest")
        for name, run in (("gatling", gatling_run), ("openloop", openloop_run))
    }
    if any(v is not None for v in cpu.values()):
        out["podCpuMsPerRequest"] = cpu
    changed = pods_changed(gatling_run, openloop_run)
    reasons = [changed] if changed else []
    if g_low["offeredRps"] != o_low["offeredRps"]:
        reasons.append(
            "the low-load steps differ in rate "
            f"({g_low['offeredRps']} vs {o_low['offeredRps']} req/s)"
        )
    if abs(p95_diff) > LOW_LOAD_P95_MS:
        reasons.append(
            f"low-load p95 differs by {p95_diff} ms (goal within {LOW_LOAD_P95_MS} ms); "
            + ci_error_text(g_ci, o_ci)
        )
    if gatling_cutoff is None and openloop_cutoff is None and None not in held_to:
        if held_to[0] != held_to[1]:
            reasons.append(
                f"both held the SLO to the top of their ramps, but these differ ({held_to[0]:g} "
                f"vs {held_to[1]:g} req/s)"
            )
        out["cutoff"] = {"heldToRps": held_to[1]}
        out["verdict"] = verdict(changed, reasons)
        out["reasons"] = reasons
        return out
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
    out["verdict"] = verdict(changed, reasons)
    out["reasons"] = reasons
    return out


def cutoff_of(answer: Mapping[str, Any]) -> tuple[float | None, float | None]:
    """(cut-off, held to) from the controller's answer to a posted run (`cutoff` of
    POST /api/v1/calibrations): the cut-off when `found`, the rate the SLO held to when
    `not-reached` (a lower bound), neither when `none`."""
    cutoff = answer.get("cutoff") or {}
    rps = cutoff.get("cutoffRps")
    status = cutoff.get("status")
    return (rps if status == "found" else None, rps if status == "not-reached" else None)


def ci_text(ci: Mapping[str, Any]) -> str:
    """[low, high] in ms, an open bound as ∞ (or 0), `≈` when bracketed by stored percentiles."""
    low = "0" if ci["lowMs"] is None else f"{ci['lowMs']:.1f}"
    high = "∞" if ci["highMs"] is None else f"{ci['highMs']:.1f}"
    return f"{'' if ci['exact'] else '≈'}[{low}, {high}]"


def ci_error_text(g_ci: Mapping[str, Any], o_ci: Mapping[str, Any]) -> str:
    """Whether a difference of two p95s is more than their sampling error."""
    both = f"95 % CIs {ci_text(g_ci)} vs {ci_text(o_ci)} ms at {o_ci['count']} requests"
    if ci_overlap(g_ci, o_ci):
        return f"within the measurement error ({both} overlap)"
    return f"beyond the measurement error ({both} are disjoint)"


def lines(c: Mapping[str, Any]) -> list[str]:
    """The comparison as printed after a run with both instruments."""
    low = c["lowLoad"]
    cut = c.get("cutoff") or {}
    if "heldToRps" in cut:
        held = cut["heldToRps"]
        cutoff = f"  cut-off:      not reached by either; both held the SLO to {held:g} req/s"
    else:
        cutoff = (
            f"  cut-off:      {c['gatling']['cutoffRps']} vs {c['openloop']['cutoffRps']} req/s"
            + (f" ({cut['diffPct']:+} %, tolerance ±{cut['toleranceRps']})" if cut else "")
        )
    cpu = c.get("podCpuMsPerRequest")
    return [
        f"class {c['sloClass']}: Gatling vs open-loop: {c['verdict']}",
        cutoff,
        f"  low-load p95: {low['gatling']['p95']} vs {low['openloop']['p95']} ms at "
        f"{low['openloop']['offeredRps']} req/s ({low['p95DiffMs']:+} ms, goal ±{low['goalMs']})",
        *([f"  pod CPU:      {cpu['gatling']} vs {cpu['openloop']} ms per request"] if cpu else []),
        *(f"  - {r}" for r in c["reasons"]),
    ]


def rate_step(run: Mapping[str, Any]) -> float:
    """A run's rate increment between its two lowest-rate steps (its only rate with one step):
    the cut-off comparison's minimum tolerance for runs that are not LinearRampCalibration
    ramps (CoLocatedRamp, TenantMix)."""
    rates = sorted({s["offeredRps"] for s in run["steps"]})
    return rates[1] - rates[0] if len(rates) > 1 else rates[0]


# Experiments that do not calibrate (calibrate: false) have no cut-off to compare: their steps
# are compared tenant by tenant instead.
STEP_P95_MS = 2.0
STEP_P95_TARGET_FRACTION = 0.10


def p95_agree(gatling_p95: float | None, openloop_p95: float | None, target_ms: float) -> bool:
    """Whether two instruments' p95 of the same tenant and step agree: both above the SLO
    target (both see it violated), or within 2 ms or 10 % of the target, whichever is larger."""
    if gatling_p95 is None or openloop_p95 is None:
        return gatling_p95 is openloop_p95
    if gatling_p95 > target_ms and openloop_p95 > target_ms:
        return True
    tolerance = max(STEP_P95_MS, STEP_P95_TARGET_FRACTION * target_ms)
    return abs(gatling_p95 - openloop_p95) <= tolerance


def verdict(pods_changed_reason: str | None, reasons: list[str]) -> str:
    """`inconclusive` when the runs measured different pods, else whether anything disagreed."""
    return "inconclusive" if pods_changed_reason else "disagrees" if reasons else "agrees"


def pods_changed(gatling_run: Mapping[str, Any], openloop_run: Mapping[str, Any]) -> str | None:
    """Why the two runs did not measure the same pods, when the class's ready pods differed
    between the start and end of either run or between the runs (an autoscaler acted); None when
    they did not or a run predates the record (hygiene.pods)."""
    counts = {
        name: run.get("hygiene", {}).get("pods")
        for name, run in (("referee", openloop_run), ("Gatling", gatling_run))
    }
    if any(c is None for c in counts.values()):
        return None
    if len({n for c in counts.values() for n in (c["atStart"], c["atEnd"])}) == 1:
        return None
    during = ", ".join(f"{n} {c['atStart']} → {c['atEnd']}" for n, c in counts.items())
    return f"the class's ready pods changed ({during}): the instruments measured different pods"


def compare_steps(
    gatling_run: Mapping[str, Any], openloop_run: Mapping[str, Any], target_ms: float
) -> dict[str, Any]:
    """The step comparison record: per step (matched by index) each tenant's p95 by both
    instruments and whether they agree (p95_agree); verdict `agrees`, or `disagrees` with one
    reason per cell that does not (a step or tenant only one instrument has is one too), or
    `inconclusive` when the class's pods changed (pods_changed)."""
    o_steps = {s["index"]: s for s in openloop_run["steps"]}
    tolerance = max(STEP_P95_MS, STEP_P95_TARGET_FRACTION * target_ms)
    changed = pods_changed(gatling_run, openloop_run)
    steps, reasons = [], [changed] if changed else []
    for g in gatling_run["steps"]:
        o = o_steps.pop(g["index"], None)
        if o is None:
            reasons.append(f"step {g['index']}: no open-loop step")
            continue
        cells = {}
        for tenant in sorted(set(g["tenants"]) | set(o["tenants"])):
            g_stats, o_stats = g["tenants"].get(tenant, {}), o["tenants"].get(tenant, {})
            g_p95, o_p95 = g_stats.get("p95"), o_stats.get("p95")
            agree = p95_agree(g_p95, o_p95, target_ms)
            cells[tenant] = {"gatling": g_p95, "openloop": o_p95, "agrees": agree}
            if agree:
                continue
            why = f"step {g['index']} tenant {tenant}: p95 {g_p95} vs open-loop {o_p95} ms"
            if (
                g_p95 is not None
                and o_p95 is not None
                and "count" in g_stats
                and "count" in o_stats
            ):
                g_ci, o_ci = p95_ci(g_stats), p95_ci(o_stats)
                cells[tenant]["ciOverlap"] = ci_overlap(g_ci, o_ci)
                why += f"; {ci_error_text(g_ci, o_ci)}"
            reasons.append(why)
        steps.append({"index": g["index"], "offeredRps": g["offeredRps"], "tenants": cells})
    reasons += [f"step {i}: no Gatling step" for i in sorted(o_steps)]
    return {
        "sloClass": gatling_run["sloClass"],
        "kind": "steps",
        "gatling": {"runId": gatling_run["runId"]},
        "openloop": {"runId": openloop_run["runId"]},
        "rule": {
            "targetMs": target_ms,
            "toleranceMs": tolerance,
            "text": f"both above {target_ms:g} ms, or within {tolerance:g} ms",
        },
        "steps": steps,
        "verdict": verdict(changed, reasons),
        "reasons": reasons,
    }


def step_lines(c: Mapping[str, Any]) -> list[str]:
    """The step comparison as printed after a run with both instruments."""
    out = [
        f"class {c['sloClass']}: Gatling vs open-loop, p95 per step and tenant: {c['verdict']} "
        f"({c['rule']['text']})"
    ]
    for s in c["steps"]:
        cells = ", ".join(
            f"{t} {v['gatling']} vs {v['openloop']}{'' if v['agrees'] else ' (!)'}"
            for t, v in s["tenants"].items()
        )
        out.append(f"  step {s['index']} ({s['offeredRps']:g} req/s), ms: {cells}")
    return [*out, *(f"  - {r}" for r in c["reasons"])]
