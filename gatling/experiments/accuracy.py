#!/usr/bin/env python3
"""Model accuracy: the cut-off at 3 replicas predicted by the fit over the 1- and 2-replica
runs, against the cut-off measured at 3 replicas.

usage: accuracy.py RESULT_DIR [gatling|openloop]
RESULT_DIR holds replicas-N/acc.response.json (POST /api/v1/calibrations answers to Gatling's
runs; acc.openloop.response.json for the open-loop referee's) for N = 1, 2, 3 in that order of
posting: the answer to the 2-replica run carries the joint fit made before the 3-replica run
was measured. Prints the result and writes accuracy.json (accuracy.openloop.json).
"""

import json
import sys
from pathlib import Path

from plot import form_of, model_ms


def predicted_cutoff(model, replicas, target_ms, hi):
    """The highest total rate (0.1 req/s resolution) whose predicted latency meets the target."""
    best, rate = None, 0.1
    while rate <= hi:
        if model_ms(model, rate, replicas) <= target_ms:
            best = rate
        rate = round(rate + 0.1, 1)
    return best


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[2:] not in ([], ["gatling"], ["openloop"]):
        sys.exit(__doc__)
    root = Path(sys.argv[1])
    suffix = "" if sys.argv[2:] in ([], ["gatling"]) else ".openloop"
    answers = {
        n: json.loads((root / f"replicas-{n}" / f"acc{suffix}.response.json").read_text())
        for n in (1, 2, 3)
    }
    fit = answers[2]["fit"]
    if not fit.get("model"):
        reasons = fit.get("reasons")
        sys.exit(f"accuracy.py: the 2-replica answer has no fitted model: {reasons}")
    target = answers[3]["cutoff"]["targetLatencyMs"]
    measured = answers[3]["cutoff"]
    steps = measured["steps"]
    hi = 2 * max(s["offeredRps"] for s in steps)
    # A fit the engine refused is not a prediction: the planner falls back to linear then.
    trusted = fit.get("status") == "trusted"
    predicted = predicted_cutoff(fit["model"], 3, target, hi) if trusted else None
    linear = (
        answers[1]["cutoff"]["cutoffRps"] * 3 if answers[1]["cutoff"].get("cutoffRps") else None
    )
    # The measured cut-off is the last passing step; the true one lies below the first failing.
    failing = [s["offeredRps"] for s in steps if not s["passed"]]
    result = {
        "targetMs": target,
        "fit": dict(
            {
                k: fit.get(k)
                for k in ("status", "model", "rSquared", "rmseMs", "pointsUsed", "sigmaFitted")
            },
            form=fit.get("form") or form_of(fit["model"]),
        ),
        "cutoffs": {n: answers[n]["cutoff"].get("cutoffRps") for n in (1, 2, 3)},
        "measured3": measured.get("cutoffRps"),
        "firstFailing3": min(failing) if failing else None,
        "predicted3": predicted,
        "linear3": linear,
        "fitReasons": fit.get("reasons"),
    }
    if predicted and measured.get("cutoffRps"):
        result["errorPct"] = round(
            100 * (predicted - measured["cutoffRps"]) / measured["cutoffRps"], 1
        )
    if linear and measured.get("cutoffRps"):
        result["linearErrorPct"] = round(
            100 * (linear - measured["cutoffRps"]) / measured["cutoffRps"], 1
        )
    (root / f"accuracy{suffix}.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
