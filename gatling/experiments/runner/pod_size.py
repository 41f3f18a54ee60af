"""Pod size from measurements (after the `pod-size` runs; results/pod-size/).

For each repetition directory DIR/<rep>/ holding one run per size (<size>/size-<size>.json),
posts the runs to a fresh class sized-<rep> that declares 400m pods with candidates 100m, 200m
and 400m (no tenants, no pods), then asks the controller's planner (POST /api/v1/plans:simulate)
for committed loads from one 100m pod's worth to several 400m pods' worth: the plan with the
size it chose, and the plan at the declared size. Both plans are linear at the measured
per-pod cut-offs (useModel false), so the CPU reserved compares sizes, not planners. Writes
DIR/plan.json; pod_size.py (the report) reads it with the runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .api import IsolatoApi
from .definition import SloClass
from .run import RunError, log

SIZES = ("100m", "200m", "400m")
DECLARED = "400m"
LOADS = (5, 10, 20, 40, 60, 90, 150, 250)


def sized_class(rep: str) -> dict[str, Any]:
    body = SloClass(f"sized-{rep}", DECLARED, "128Mi", 500, 1, 10, 50).body()
    body["spec"]["resources"]["cpuCandidates"] = list(SIZES)
    return body


def _simulate(api: IsolatoApi, cls: str, load: float, overrides: dict[str, Any]) -> dict[str, Any]:
    body = {
        "sloClass": cls,
        "tenants": [{"tenantId": "t1", "committedRps": load}],
        "overrides": overrides,
    }
    return json.loads(api.call("POST", "/api/v1/plans:simulate", body))


def _cpu_millis(size: str) -> int:
    return int(size.removesuffix("m"))


def pod_size_plan(api: IsolatoApi, directory: Path) -> None:
    reps = sorted(d for d in directory.iterdir() if d.is_dir() and (d / DECLARED).is_dir())
    if not reps:
        raise RunError(f"no repetition with the pod-size runs under {directory}")
    out: dict[str, Any] = {"declared": DECLARED, "candidates": list(SIZES), "repetitions": {}}
    for rep in reps:
        runs = {s: rep / s / f"size-{s}.json" for s in SIZES}
        missing = [str(p) for p in runs.values() if not p.exists()]
        if missing:
            log(f"skipping {rep.name}: missing {', '.join(missing)}")
            continue
        body = sized_class(rep.name)
        name = body["name"]
        api.delete_quietly(f"/api/v1/slo-classes/{name}")
        api.call("POST", "/api/v1/slo-classes", body)
        try:
            cutoffs: dict[str, Any] = {}
            # the declared size last: the class's own per-pod cut-off is the newest one posted
            for size, path in runs.items():
                log(f"posting the {size} run of {rep.name} to {name}")
                run = {**json.loads(path.read_text()), "sloClass": name}
                answer = json.loads(api.call("POST", "/api/v1/calibrations", run))
                cutoffs[size] = answer.get("perPodCutoffRps")
            rows = []
            for load in LOADS:
                chosen = _simulate(api, name, load, {"useModel": False})["plan"]
                declared = _simulate(
                    api, name, load, {"useModel": False, "perPodCutoffRps": cutoffs[DECLARED]}
                )["plan"]
                default = _simulate(api, name, load, {})["plan"]
                rows.append(
                    {
                        "committedRps": load,
                        "chosen": {
                            "podCpuMillis": chosen.get("podCpuMillis"),
                            "replicas": chosen["replicas"],
                            "explanation": chosen["explanation"],
                        },
                        "declared": {
                            "podCpuMillis": _cpu_millis(DECLARED),
                            "replicas": declared["replicas"],
                        },
                        "planner": {
                            "podCpuMillis": default.get("podCpuMillis"),
                            "replicas": default["replicas"],
                            "method": default["method"],
                        },
                    }
                )
            out["repetitions"][rep.name] = {"perPodCutoffRps": cutoffs, "loads": rows}
            (rep / "sized.status.json").write_bytes(api.call("GET", f"/api/v1/slo-classes/{name}"))
        finally:
            api.delete_quietly(f"/api/v1/slo-classes/{name}")
    (directory / "plan.json").write_text(json.dumps(out, indent=2) + "\n")
    log(f"wrote {directory / 'plan.json'}")
