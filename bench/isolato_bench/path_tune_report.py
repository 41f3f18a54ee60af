#!/usr/bin/env python3
"""The tuning loop on Isolato's own paths (`isolato-bench path-tune`) as a docs/benchmarks-log.md
section: one table per analysis, one row per iteration of the loop.

report(ANALYSES, MACHINE, LOAD_START, LOAD_END) → the section
"""

from datetime import UTC, datetime

NONE = "\u2013"  # an en dash: the table cell of a value that does not exist


def title(shape, workload=None):
    """What the analysis deployed: its own words when it has them (analyses since 2026-11-26),
    else guessed from its shape, which does not tell a new class from a scale-out."""
    limit = shape.get("podCpuLimitMillis") or 0
    pods = f", pods of {limit}m CPU" if limit else ""
    if workload:
        return f"{workload}{pods}"
    if shape["podsPerWorkload"] == 1:
        return f"{shape['workloads']} dedicated tenants onboarded at once{pods}"
    return f"a pool scaled from 1 to {1 + shape['podsPerWorkload']} pods{pods}"


# S5's and S6's steps the kubelets time (KubeletSteps), in the order they run
KUBELET_STEPS = (
    ("S5_SANDBOX", "T_cs"),
    ("S6_CREATE_CONTAINER", "T_cc"),
    ("S6_START_CONTAINER", "T_sc"),
)


def timed(steps, names, show):
    """The steps of `names` (key, name) that ran, each as show(name, its measure), joined by
    ' · '; a dash when none was measured."""
    parts = [show(name, m) for key, name in names if (m := (steps or {}).get(key)) and m["count"]]
    return " · ".join(parts) or NONE


def kubelet(steps):
    """'T_cs 2.10 · T_cc 0.01 · T_sc 3.02': seconds per pod, or a dash when not measured."""
    return timed(steps, KUBELET_STEPS, lambda s, m: f"{s} {m['seconds'] / m['count']:.2f}")


ATTEMPT_RESULTS = ("scheduled", "unschedulable", "error")  # ControlPlaneSteps.ATTEMPT_RESULTS


def attempts(it):
    """The scheduler's attempts by result, '1600 scheduled · 960 error' (a result never seen left
    out), or a dash when not read."""
    a = it.get("schedulingAttempts") or {}
    return " · ".join(f"{a[k]} {k}" for k in ATTEMPT_RESULTS if a.get(k)) or NONE


def change(it):
    if it.get("applied"):
        return f"{it['decision']}: {it['applied']}"
    rec = it.get("recommendation")
    if rec:
        return f"{it['decision']} ({rec['parameter']} → {rec['to']:g} not applied)"
    return it["decision"]


def measured(it):
    """'21.20', or with repeats '21.20 (of 25.10, 21.20, 19.90)': the median run and every run."""
    runs = it.get("repeatSeconds") or []
    of = f" (of {', '.join(f'{x:.2f}' for x in runs)})" if len(runs) > 1 else ""
    return f"{it['measuredSeconds']:.2f}{of}"


def bottleneck(it):
    """'S4 (41 vs 26 %) at S4 T_w (21 vs 10 %)': the bottleneck stage's share of the run measured
    vs predicted, and its step's where the components timed the stage's steps; a dash when none."""

    def shares(x, name):
        return f"{name} ({100 * x['measuredShare']:.0f} vs {100 * x['predictedShare']:.0f} %)"

    b, step = it.get("bottleneck"), it.get("bottleneckStep")
    if not b:
        return NONE
    return shares(b, b["stage"]) + (f" at {shares(step, step['label'])}" if step else "")


def row(it):
    cpu = it["cpu"]
    gain = it.get("measuredGain")
    ratio = it["predictedSeconds"] / it["measuredSeconds"] - 1
    return (
        f"| {it['iteration']} | {measured(it)} | {it['predictedSeconds']:.2f}"
        f" ({100 * ratio:+.0f} %)"
        f" | {it['measured'].get('S1', 0):.2f} | {it['measured'].get('S5', 0):.2f}"
        f" | {kubelet(it.get('singleKubeletSteps'))} | {kubelet(it.get('kubeletSteps'))}"
        f" | {bottleneck(it)} | {NONE if gain is None else f'{100 * gain:.1f} %'}"
        f" | {it.get('reverted') or NONE} | {change(it)}"
        f" | {100 * cpu['controlPlane']:.0f} / {100 * cpu['node']:.0f}"
        f" / {100 * cpu['client']:.0f} / {100 * cpu['host']:.0f} % |"
    )


def section(a):
    out = [f"\n#### {title(a['shape'], a.get('workload'))} (analysis {a['id']})\n"]
    out.append(
        "| iteration | measured (s): the median run | model best case (s, vs measured) | S1 (s)"
        " | S5 (s) | kubelet per pod, single (s) | kubelet per pod, the run (s)"
        " | bottleneck (measured vs predicted share) | gain over the previous | undone"
        " | decision | CPU control plane / node / Isolato / host |"
    )
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    out += [row(it) for it in a["iterations"]]
    out.append("")
    out.append(
        f"Outcome: {a['outcome'] if a['status'] == 'DONE' else 'FAILED: ' + str(a['error'])}."
    )
    return "\n".join(out)


def spread(analyses):
    """The largest max/min - 1 among the repeats of one iteration, or None without repeats."""
    ratios = [
        max(r) / min(r) - 1
        for a in analyses
        for it in a["iterations"]
        if len(r := it.get("repeatSeconds") or []) > 1
    ]
    return max(ratios) if ratios else None


def report(analyses, machine, load0, load1):
    when = max(datetime.fromisoformat(a["finished"]) for a in analyses)
    s = spread(analyses)
    noise = (
        f"the repeats of one iteration spread by up to {100 * s:.0f} %, so a gain below that is"
        " noise"
        if s is not None
        else "one run per iteration, so a gain below the run-to-run spread is noise"
    )
    out = [
        f"\n### The tuning loop on Isolato's own paths —"
        f" {when.astimezone(UTC):%Y-%m-%d %H:%M} UTC — {machine}\n",
        '`isolato-bench path-tune`: `make tune TUNE_ARGS="--path …"` from localkube\'s and'
        " Isolato's defaults, the controller run and restarted by the loop; seconds from the first"
        " API call to the last new pod Ready (traced), the median of the iteration's runs, against"
        " the model's best case from the fastest of three single-tenant onboardings of the same"
        " iteration (a pod whose CPU limit is below one core counts as that share of a core in"
        " S5 and S6). The kubelet's columns are its own timings of the pod sandbox (T_cs, with"
        " the CNI), container create (T_cc) and start (T_sc), per pod, from its /metrics before"
        f" and after the run. Load average at the start {load0}, at the end {load1}: 2 cores"
        f" shared with other work; {noise}. Every setting is put back at the end.",
    ]
    out += [section(a) for a in analyses]
    return "\n".join(out) + "\n"
