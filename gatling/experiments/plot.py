#!/usr/bin/env python3
"""Draws an experiment's plots from its calibration runs and the SLO classes' status.

usage: plot.py RESULT_DIR
RESULT_DIR holds <class>.json (calibration runs, docs/calibration-format.md) and optionally
<class>.status.json (GET /api/v1/slo-classes/<class>: spec.latency and status.cutoffs/model).
Writes p95-vs-rate.png (measured latency per class, target line, cut-off marked) and, when a
fitted model is present, model-fit.png (predicted vs measured).
"""

import json
import sys
from pathlib import Path

import matplotlib
from runner.places import plot_dir
from runner.run import REFEREE_RUN_ID_SUFFIX
from runner.run import run_file as stored_as

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt

REFEREE_SUFFIX = stored_as("", "openloop").removesuffix(".json")  # <class>.openloop.json


def load(result_dir):
    """(run, status) per run file; a referee's run gets its class's status too."""
    classes = []
    for run_file in sorted(result_dir.glob("*.json")):
        if run_file.name.endswith((".status.json", ".response.json", ".comparison.json")):
            continue  # not runs: the class, the API's answer, the instruments side by side
        run = json.loads(run_file.read_text())
        if "steps" not in run:
            continue
        status_file = run_file.with_name(
            run_file.stem.removesuffix(REFEREE_SUFFIX) + ".status.json"
        )
        status = json.loads(status_file.read_text()) if status_file.exists() else {}
        classes.append((run, status))
    return classes


def is_referee(run):
    return run.get("runId", "").endswith(REFEREE_RUN_ID_SUFFIX)


def series_of(run):
    """A run's name in a legend: its class, context and, beside Gatling, which instrument."""
    instrument = ", open-loop referee" if is_referee(run) else ""
    return "{} ({}{})".format(run["sloClass"], run["context"].get("label", ""), instrument)


def target_of(status):
    latency = (status.get("spec") or {}).get("latency") or {}
    return latency.get("percentile", 95), latency.get("targetMs")


def key_of(percentile):
    return f"p{round(percentile)}"


def cutoff_of(run, status):
    """The cut-off stored for this run: matched on runId; for figures stored without runIds, the
    newest one (status.cutoffs is oldest first) with the run's replica count and context label."""
    cutoffs = (status.get("status") or {}).get("cutoffs") or []
    for c in cutoffs:
        if c.get("runId") == run.get("runId"):
            return c.get("rps")
    if is_referee(run) or any(c.get("runId") for c in cutoffs):
        return None  # not posted (or the referee's): the newest figure is another run's
    replicas = (run.get("context") or {}).get("replicas", 1)
    label = (run.get("context") or {}).get("label")
    for c in reversed(cutoffs):
        if c.get("pods", 1) == replicas and c.get("context") in (None, label):
            return c.get("rps")
    return None


def usl_ms(model, r):
    """USL form (controller/.../slo/UslModel) at per-replica load r: s(1 + a(r-1) + b r(r-1))."""
    return model["scaleMs"] * (1 + model["alpha"] * (r - 1) + model["beta"] * r * (r - 1))


def queue_ms(model, r):
    """Queue form (controller/.../slo/QueueModel) at per-replica load r: s + k rho/(1-rho),
    rho = r/mu; infinite at rho >= 1 (past the replica's capacity)."""
    rho = r / model["capacityRps"]
    return float("inf") if rho >= 1 else model["scaleMs"] + model["queueMs"] * rho / (1 - rho)


FORMS = {"usl": usl_ms, "queue": queue_ms}


def form_of(model):
    """The model's form; models stored before the queue form have none and are USL."""
    return model.get("form") or "usl"


def model_ms(model, total_rps, replicas):
    """The SLO engine's predicted latency (LatencyModel): the form's curve at the per-replica
    load r = RR / C(replicas), C(n) = (theta + (1 - theta) n) / (1 + sigma (n - 1)); models
    stored before theta have none (0)."""
    sigma, theta = model.get("sigma", 0.0), model.get("theta", 0.0)
    r = total_rps / ((theta + (1 - theta) * replicas) / (1 + sigma * (replicas - 1)))
    return FORMS[form_of(model)](model, r)


def plot_latency(classes, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    targets = set()  # one target line per class, however many instruments ran it
    for run, status in classes:
        percentile, target = target_of(status)
        key = key_of(percentile)
        steps = sorted(run["steps"], key=lambda s: s["offeredRps"])  # the knee's probes come last
        rates = [s["offeredRps"] for s in steps]
        (line,) = ax.plot(
            rates,
            [s["total"][key] for s in steps],
            marker="o",
            label=series_of(run),
        )
        if target and (run["sloClass"], target) not in targets:
            targets.add((run["sloClass"], target))
            ax.axhline(
                target,
                color=line.get_color(),
                linestyle="--",
                linewidth=1,
                label="{} target {} ms".format(run["sloClass"], target),
            )
        cutoff = cutoff_of(run, status)
        if cutoff:
            ax.axvline(
                cutoff,
                color=line.get_color(),
                linestyle=":",
                linewidth=1.5,
                label="{} cut-off {:.1f} req/s".format(run["sloClass"], cutoff),
            )
    ax.set_xlabel("offered rate (req/s)")
    ax.set_ylabel("latency percentile (ms)")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(
        "Latency vs offered rate"
        + (" (partial run)" if any(r["partial"] for r, _ in classes) else "")
    )
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def plot_model(classes, out):
    # a run that does not know its replica count (a planner verification: context replicas 0)
    # has no load per replica to draw the model at
    fitted = [
        (r, s)
        for r, s in classes
        if (s.get("status") or {}).get("model") and (r["context"].get("replicas") or 0) >= 1
    ]
    if not fitted:
        return False
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for run, status in fitted:
        model = status["status"]["model"]
        percentile, _ = target_of(status)
        key = key_of(percentile)
        replicas = run["context"]["replicas"]
        rates = [s["offeredRps"] for s in run["steps"]]
        (line,) = ax.plot(
            rates,
            [s["total"][key] for s in run["steps"]],
            "o",
            label="{} measured {}".format(run["sloClass"], key),
        )
        lo, hi = min(rates), max(rates)
        grid = [lo + (hi - lo) * i / 100 for i in range(101)]
        ax.plot(
            grid,
            [model_ms(model, x, replicas) for x in grid],
            "-",
            color=line.get_color(),
            label="{} predicted ({} fit)".format(run["sloClass"], form_of(model)),
        )
    ax.set_xlabel("offered rate (req/s)")
    ax.set_ylabel("latency (ms)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Predicted vs measured latency")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return True


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    result_dir = Path(sys.argv[1])
    classes = load(result_dir)
    if not classes:
        sys.exit(f"plot.py: no calibration runs (*.json with steps) in {result_dir}")
    out = plot_dir(result_dir)
    plot_latency(classes, out / "p95-vs-rate.png")
    drawn = ["p95-vs-rate.png"]
    if plot_model(classes, out / "model-fit.png"):
        drawn.append("model-fit.png")
    print("plot.py: wrote {} in {}".format(", ".join(drawn), out))


if __name__ == "__main__":
    main()
