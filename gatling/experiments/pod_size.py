#!/usr/bin/env python3
"""Pod size from measurements: what a CPU quota buys at the tail, and the CPU the planner's size
choice reserves against the declared size's.

usage: pod_size.py RESULT_DIR
RESULT_DIR (results/pod-size) holds <rep>/<size>/size-<size>.response.json (the answers to
POST /api/v1/calibrations of the `pod-size` runs) and plan.json (runner.sh pod-size-plan).
Prints a Markdown summary and writes summary.json.
"""

import itertools
import json
import statistics
import sys
from pathlib import Path


def millis(size):
    return int(size.removesuffix("m"))


def cutoffs(directory):
    """{size: [(rep, per-pod cut-off, the run's rate step)]} over the repetitions."""
    out = {}
    for response in sorted(directory.glob("*/*/size-*.response.json")):
        size, rep = response.parent.name, response.parent.parent.name
        answer = json.loads(response.read_text())
        run = json.loads((response.parent / f"size-{size}.json").read_text())
        rates = sorted(s["offeredRps"] for s in run["steps"])
        step = min(b - a for a, b in itertools.pairwise(rates)) if len(rates) > 1 else None
        out.setdefault(size, []).append((rep, answer.get("perPodCutoffRps"), step))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = Path(sys.argv[1])
    measured = cutoffs(directory)
    if not measured:
        sys.exit(f"no pod-size runs under {directory}")
    sizes = sorted(measured, key=millis)
    largest = sizes[-1]
    per_core = {}
    rows = []
    for size in sizes:
        values = [c for _, c, _ in measured[size] if c is not None]
        step = max(s for _, _, s in measured[size] if s is not None)
        mean = statistics.mean(values) if values else None
        spread = (max(values) - min(values)) / 2 if len(values) > 1 else None
        per_core[size] = mean / (millis(size) / 1000) if mean else None
        rows.append(
            {
                "size": size,
                "cutoffs": {rep: c for rep, c, _ in measured[size]},
                "meanRps": mean,
                "halfRangeRps": spread,
                "stepRps": step,
                "rpsPerCore": per_core[size],
            }
        )
    for r in rows:
        big = per_core[largest]
        r["perCoreVsLargest"] = r["rpsPerCore"] / big if r["rpsPerCore"] and big else None

    head = "| pod CPU | cut-off per repetition (req/s) | mean ± half-range | step | req/s per core"
    print(f"{head} | vs {largest} |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        reps = ", ".join(
            f"{rep}: {c:g}" if c is not None else f"{rep}: none" for rep, c in r["cutoffs"].items()
        )
        if r["meanRps"] is None:
            mean = "none (p95 over target at the first step)"
        elif r["halfRangeRps"] is not None:
            mean = f"{r['meanRps']:.1f} ± {r['halfRangeRps']:.1f}"
        else:
            mean = f"{r['meanRps']:g}"
        ratio = f"{100 * r['perCoreVsLargest']:.0f}%" if r["perCoreVsLargest"] else "—"
        core = f"{r['rpsPerCore']:.0f}" if r["rpsPerCore"] else "—"
        print(f"| {r['size']} | {reps} | {mean} | {r['stepRps']:g} | {core} | {ratio} |")

    plan_file = directory / "plan.json"
    loads = []
    if plan_file.exists():
        plan = json.loads(plan_file.read_text())
        declared = plan["declared"]
        print()
        print(
            f"| committed req/s | repetition | declared {declared}: pods → CPU"
            " | chosen: size × pods → CPU | CPU saved |"
        )
        print("|---|---|---|---|---|")
        for rep, r in plan["repetitions"].items():
            for row in r["loads"]:
                d_cpu = row["declared"]["replicas"] * row["declared"]["podCpuMillis"]
                size = row["chosen"]["podCpuMillis"] or millis(declared)
                c_cpu = row["chosen"]["replicas"] * size
                saved = 1 - c_cpu / d_cpu
                loads.append(
                    {
                        "rep": rep,
                        "committedRps": row["committedRps"],
                        "declaredCpuMillis": d_cpu,
                        "chosenPodCpuMillis": size,
                        "chosenReplicas": row["chosen"]["replicas"],
                        "chosenCpuMillis": c_cpu,
                        "saved": saved,
                    }
                )
                print(
                    f"| {row['committedRps']:g} | {rep} | {row['declared']['replicas']} → {d_cpu}m"
                    f" | {size}m × {row['chosen']['replicas']} → {c_cpu}m | {100 * saved:.0f}% |"
                )
    (directory / "summary.json").write_text(
        json.dumps({"sizes": rows, "loads": loads}, indent=2) + "\n"
    )


if __name__ == "__main__":
    main()
