"""A verdict: did one measured step at the planned replica count keep every tenant in the SLO?

Pure: it takes the simulation's run (docs/calibration-format.md), the class's plan
(GET /api/v1/slo-classes/<class>/plan) and the pool's ready replicas, and returns the fields a
definition asks for, in its order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Json = dict[str, Any]


def _tenants(step: Json) -> list[Json]:
    return list(step["tenants"].values())


def _violations(step: Json, plan: Json) -> int:
    """Tenants whose p95 missed the class's target or that saw an error."""
    target = plan["targetMs"]
    return sum(1 for t in _tenants(step) if t["p95"] > target or t["errors"] > 0)


# name -> value from (first step of the run, plan, ready replicas)
FIELDS: dict[str, Callable[[Json, Json, int], Any]] = {
    "readyReplicas": lambda s, p, ready: ready,
    "planReplicas": lambda s, p, ready: p["plan"]["replicas"],
    "method": lambda s, p, ready: p["plan"]["method"],
    "linearReplicas": lambda s, p, ready: p["linearBaseline"]["replicas"],
    "totalCommittedRps": lambda s, p, ready: p["totalCommittedRps"],
    "perPodCutoffRps": lambda s, p, ready: p["perPodCutoffRps"],
    "achievedRps": lambda s, p, ready: s["achievedRps"],
    "requests": lambda s, p, ready: s["total"]["count"],
    "errors": lambda s, p, ready: s["total"]["errors"],
    "p95Ms": lambda s, p, ready: s["total"]["p95"],
    "worstTenantP95Ms": lambda s, p, ready: max(t["p95"] for t in _tenants(s)),
    "targetMs": lambda s, p, ready: p["targetMs"],
    "violations": lambda s, p, ready: _violations(s, p),
}


def verdict(fields: list[str | Mapping[str, Any]], run: Json, plan: Json, ready: int) -> Json:
    """The verdict object: a str field is computed (FIELDS), a {name: value} one is a constant."""
    if not run.get("steps"):
        raise ValueError(f"the run of {run.get('sloClass')} has no complete step")
    step = run["steps"][0]
    out: Json = {}
    for f in fields:
        if isinstance(f, str):
            out[f] = FIELDS[f](step, plan, ready)
        else:
            out.update(f)
    return out


def holds(v: Json) -> bool:
    """True when no tenant missed the class's target or saw an error."""
    return v.get("violations", 0) == 0
