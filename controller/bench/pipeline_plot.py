"""Stage-breakdown plots of tuning-loop analyses (docs/results/pipeline/), after Columbo's
Fig. 5/6 (time per stage of the deployment, measured beside the model's best case) and Fig. 8
(each stage's share of the time, measured vs predicted, before and after tuning).

    python controller/bench/pipeline_plot.py ANALYSIS.json [...]   # writes ANALYSIS.png beside each
"""

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

STAGES = ["S1", "S2", "S3", "S4", "S5", "S6", "S7"]
TITLES = {
    "S1": "create workload",
    "S2": "unpack workload",
    "S3": "create pod object",
    "S4": "schedule pod",
    "S5": "create pod",
    "S6": "create container",
    "S7": "ready",
}
COLORS = plt.get_cmap("tab10").colors


def bars(ax, rows):
    """Horizontal stacked bars, one per (label, {stage: seconds})."""
    for y, (_, stages) in enumerate(rows):
        left = 0.0
        for i, s in enumerate(STAGES):
            v = stages.get(s, 0.0)
            if v > 0:
                ax.barh(y, v, left=left, color=COLORS[i], edgecolor="white", linewidth=0.5)
            left += v
        ax.text(left, y, f" {left:.1f} s", va="center", fontsize=8)
    ax.set_yticks(range(len(rows)), [label for label, _ in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("seconds (critical path: the last pod to become Ready)")


def shares(ax, first, last):
    """Fig. 8: each stage's share of the deployment time, measured and predicted."""
    width = 0.2
    for k, (label, it) in enumerate([("first", first), ("last", last)]):
        for j, (kind, key) in enumerate([("measured", "measured"), ("best case", "predicted")]):
            total = sum(it[key].values()) or 1.0
            xs = [i + (2 * k + j - 1.5) * width for i in range(len(STAGES))]
            ys = [100 * it[key].get(s, 0.0) / total for s in STAGES]
            ax.bar(
                xs,
                ys,
                width,
                label=f"{label} iteration, {kind}",
                hatch="" if j == 0 else "//",
                color=COLORS[7 + k],
                edgecolor="black",
                linewidth=0.3,
            )
    labels = [f"{s}\n{TITLES[s]}" for s in STAGES]
    ax.set_xticks(range(len(STAGES)), labels, fontsize=6, rotation=15)
    ax.set_ylabel("share of deployment time (%)")
    ax.legend(fontsize=7)


def plot(path: Path) -> Path:
    a = json.loads(path.read_text())
    its = a["iterations"]
    shape = a["shape"]
    rows = []
    for it in its:
        change = (it.get("applied") or "").split(" && ")[0].removeprefix("localkube config set ")
        rows.append((f"#{it['iteration']} measured", it["measured"]))
        rows.append((f"#{it['iteration']} best case", it["predicted"]))
        if change:
            rows.append((f"  then set {change}", {}))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 3 + 0.35 * len(rows) + 3))
    bars(top, rows)
    handles = [plt.Rectangle((0, 0), 1, 1, color=COLORS[i]) for i in range(len(STAGES))]
    top.legend(handles, [f"{s} {TITLES[s]}" for s in STAGES], fontsize=7, loc="lower right")
    hw = a.get("hardware") or {}
    top.set_title(
        f"{shape['workloads']} × {shape['podsPerWorkload']} pods (C={shape['containersPerPod']}), "
        f"N={hw.get('nodes')}, U_c={hw.get('controlPlaneCores')}, U_w={hw.get('workerCores')}: "
        f"{a.get('outcome') or a.get('error')}",
        fontsize=8,
    )
    shares(bottom, its[0], its[-1])
    fig.tight_layout()
    out = path.with_suffix(".png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for arg in sys.argv[1:]:
        print(plot(Path(arg)))
