#!/usr/bin/env python3
"""The aggressive-tenant experiment with and without admission control, side by side.

usage: aggressive.py RESULT_DIR
RESULT_DIR holds admission-enforce/ and admission-off/, each with the AggressiveTenant run
(<class>.json, docs/calibration-format.md) and the class's <class>.status.json. The first
tenant of a step is the aggressive one; step k sends k times its commitment, the others send
theirs. Prints a Markdown table, writes summary.json and aggressive.png (abiding tenants' worst
p95 per step, both modes, with the class's target).
"""

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt
from plot import key_of, load, target_of
from runner.places import plot_dir

MODES = ("enforce", "off")


def summarise(run, percentile):
    """Per step: the aggressive tenant's factor, its answers and 429s, the abiding tenants' worst
    percentile and errors. The commitment is step 0's rate per tenant (factor 1 for everyone)."""
    key = key_of(percentile)
    first = run["steps"][0]
    committed = first["offeredRps"] / len(first["tenants"])
    rows = []
    for step in run["steps"]:
        tenants = list(step["tenants"].items())
        aggressive, abiding = tenants[0][1], [t for _, t in tenants[1:]]
        factor = (step["offeredRps"] - committed * len(abiding)) / committed
        rows.append(
            {
                "factor": round(factor, 2),
                "offeredRps": step["offeredRps"],
                "aggressiveCount": aggressive["count"],
                "aggressiveErrors": aggressive["errors"],
                "aggressiveP95Ms": aggressive.get(key),
                "abidingWorstMs": max(t.get(key) or 0 for t in abiding),
                "abidingErrors": sum(t["errors"] for t in abiding),
            }
        )
    return rows


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = Path(sys.argv[1])
    summary, target, percentile = {}, None, 95
    for mode in MODES:
        classes = load(root / ("admission-" + mode))
        if not classes:
            sys.exit("aggressive.py: no run in %s" % (root / ("admission-" + mode)))
        run, status = classes[0]
        percentile, target = target_of(status)
        summary[mode] = summarise(run, percentile)
    summary["targetMs"] = target
    (root / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")

    print(
        f"| k | offered req/s | admission | abiding worst p{round(percentile)} ms | abiding KO | "
        f"aggressive sent | aggressive 429/KO | aggressive p{round(percentile)} ms |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for i in range(len(summary["enforce"])):
        for mode in MODES:
            r = summary[mode][i]
            print(
                f"| {r['factor']:g} | {r['offeredRps']:g} | {mode} | {r['abidingWorstMs']:.1f} "
                f"| {r['abidingErrors']:.0f} | {r['aggressiveCount']:.0f} "
                f"| {r['aggressiveErrors']:.0f} | {r['aggressiveP95Ms'] or 0:.1f} |"
            )

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for mode, marker in zip(MODES, ("o", "s"), strict=True):
        rows = summary[mode]
        ax.plot(
            [r["factor"] for r in rows],
            [r["abidingWorstMs"] for r in rows],
            marker=marker,
            label=f"abiding tenants, admission {mode}",
        )
    if target:
        ax.axhline(
            target,
            color="grey",
            linestyle="--",
            linewidth=1,
            label=f"target p{round(percentile)} {target} ms",
        )
    ax.set_yscale("log")
    ax.set_xlabel("aggressive tenant's rate / its commitment (k)")
    ax.set_ylabel(f"worst abiding tenant p{round(percentile)} latency (ms)")
    ax.set_title("One tenant at k x its commitment, two at theirs")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(plot_dir(root) / "aggressive.png", dpi=110)
    print(f"aggressive.py: wrote summary.json and aggressive.png for {root}", file=sys.stderr)


if __name__ == "__main__":
    main()
