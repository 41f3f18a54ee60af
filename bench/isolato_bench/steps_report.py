#!/usr/bin/env python3
"""The tuning loop's view of the control plane's steps and its clients' rate limiters
(`isolato-bench token-bucket`) as a docs/benchmarks-log.md section: one row per iteration.

report(ANALYSIS, MACHINE, LOAD_START, LOAD_END, QPS, BURST, COMMAND) → the section

COMMAND is how the analysis was made (a sentence in Markdown).
"""

from datetime import UTC, datetime

from .path_tune_report import NONE, attempts, change, measured, spread, timed

# S1-S4's steps the control plane times (ControlPlaneSteps), in pipeline order
CONTROL_PLANE_STEPS = (
    ("S2_READ", "S2 T_r"),
    ("S3_CREATE_POD_OBJECT", "S3 T_cpo"),
    ("S3_WRITE", "S3 T_w"),
    ("S4_READ", "S4 T_r"),
    ("S4_SCHEDULE", "S4 T_sc"),
    ("S4_WRITE", "S4 T_w"),
)
CLIENTS = (
    ("CONTROLLER_MANAGER", "controller manager"),
    ("SCHEDULER", "scheduler"),
    ("KUBELET", "kubelet"),
    ("APISERVER", "API server's queues"),
)


def control_plane(steps):
    """'S3 T_w 22 ms ×100 · …': the mean per operation and the count, or a dash."""
    return timed(
        steps,
        CONTROL_PLANE_STEPS,
        lambda s, m: f"{s} {1000 * m['seconds'] / m['count']:.0f} ms ×{m['count']}",
    )


def throttled(waits):
    """'controller manager 67.19 s / 362 · …': seconds waited for each limit, summed, over the
    requests."""
    parts = [
        f"{name} {m['seconds']:.2f} s / {m['count']}"
        for key, name in CLIENTS
        if (m := (waits or {}).get(key)) is not None
    ]
    return " · ".join(parts) or NONE


def bucket_floor(pods, qps, burst):
    """The least time `pods` creates take through a full bucket of `burst` refilled at `qps`."""
    return max(0, pods - burst) / qps


def span(it):
    """Seconds from the ReplicaSet to its last pod's creation (traced), or a dash."""
    s = it.get("createSpanSeconds")
    return NONE if s is None else f"{s:.2f}"


def row(it, previous):
    rec = it.get("recommendation")
    predicted = f"{100 * rec['predictedGain']:.1f} %" if rec else NONE
    gain = it.get("measuredGain")
    carried = previous.get("predicted", NONE) if previous else NONE
    return (
        f"| {it['iteration']} | {measured(it)}"
        f" | {it['measured'].get('S3', 0):.2f} | {span(it)}"
        f" | {control_plane(it.get('controlPlaneSteps'))} | {attempts(it)}"
        f" | {throttled(it.get('throttled'))} | {change(it)} | {predicted}"
        f" | {carried} | {NONE if gain is None else f'{100 * gain:.1f} %'} |"
    ), {"predicted": predicted}


def report(a, machine, load0, load1, qps, burst, command):
    when = datetime.fromisoformat(a["finished"]).astimezone(UTC)
    pods = a["shape"]["workloads"] * a["shape"]["podsPerWorkload"]
    nodes = (a.get("hardware") or {}).get("nodes", 1)
    s = spread([a])
    noise = (
        f"the repeats of one iteration spread by up to {100 * s:.0f} %"
        if s is not None
        else "one run per iteration"
    )
    out = [
        f"\n### Deploy pipeline: the control plane's steps and its clients' rate limiters,"
        f" 1 × {pods} pods on {nodes} node{'s' if nodes > 1 else ''} from the controller"
        f" manager's QPS {qps:g} — {when:%Y-%m-%d %H:%M} UTC — {machine}\n",
        f"{command} The controller manager's `kube-api-qps` was {qps:g} to begin with"
        f" (Kubernetes' default 20; burst {burst:g}). Per operation: each step's mean as the"
        " component timed it (its histogram's growth over the median run), and how long each"
        " client's requests waited for its own token bucket and the API server's in its priority"
        " and fairness queues (its in-flight limits), summed over them (requests overlap, so the"
        " sum can exceed the run). The bucket alone needs at least"
        f" {bucket_floor(pods, qps, burst):.2f} s for {pods} pod creates ((pods − burst) / QPS),"
        f" and {bucket_floor(pods, pods, burst):.2f} s at QPS {pods}: the tracer's span from the"
        " ReplicaSet to its last pod's creation, an instrument independent of the controller"
        " manager's own histograms, is the check (S3 itself ends at the creation of the pod Ready"
        " last, which need not be the last one created). Load average at the start"
        f" {load0}, at the end {load1}; {noise}. The setting is put back at the end.\n",
        "| iteration | measured (s): the median run | S3 (s, traced) | pods created over (s,"
        " traced) | control plane per operation | scheduling attempts"
        " | waited for limits (s / requests) | decision | predicted gain | predicted for this"
        " run | measured gain |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    previous = None
    for it in a["iterations"]:
        line, previous = row(it, previous)
        out.append(line)
    out.append("")
    out.append(
        f"Outcome: {a['outcome'] if a['status'] == 'DONE' else 'FAILED: ' + str(a['error'])}."
    )
    return "\n".join(out) + "\n"
