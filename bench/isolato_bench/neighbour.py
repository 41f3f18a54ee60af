"""The noisy-neighbour experiment's figures (issue 34 item 5; `isolato-bench neighbour`).

A run directory (bench/sh/neighbour.sh) holds calibration.json (the in-context calibration the
load was set from) and one directory per phase, `off` (the controller's verification loop off)
and `on`, each with meta.json, samples.csv (openloop -samples: intended send time in Unix ms,
latency ms, 2xx), load.json (openloop's run, with -self-stats' "generator"), class.txt and
replicas.txt (watch lines stamped on arrival: `unix µs|plan replicas|SloHeld|effective cut-off|
message` and `unix µs|spec replicas|ready replicas`), and cpu-<mark>.json + stat-<mark> (the
gold pod's and the neighbour's cgroup CPU and /proc/stat at the load's start, the neighbour's
apply and the end), and preempted.json (the Events `Preempted` of the neighbour's pods at the
phase's end: a class's new pods outrank a plain Deployment and may evict it). Everything here but
`plot` is pure: text in, figures out.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path

from filler import utilisation
from reaction_time import (
    finish_latency_plot,
    first_above,
    p95,
    ready_steps,
    recovered_at,
    windows,
)

WINDOW_S = 5.0  # p95 windows: ~400 requests each at the rates run here
BACK_GOAL_S = 60.0  # p95 back under target at most this long after the neighbour starts
SILENT_GOAL_S = 30.0  # never longer over target while the class says all is well
PHASES = ("off", "on")
LABELS = {"off": "verification loop off", "on": "verification loop on"}


@dataclass(frozen=True)
class ClassEvent:
    t: float  # Unix s, on arrival at the host
    plan: int | None
    held: str  # True, False, Unknown or "" (no SloHeld condition: the loop is off)
    effective_rps: float | None
    message: str


def parse_class(text: str) -> list[ClassEvent]:
    out = []
    for line in text.splitlines():
        parts = line.split("|", 4)
        if len(parts) < 4 or not parts[0].isdigit():
            continue
        out.append(
            ClassEvent(
                t=int(parts[0]) / 1e6,
                plan=int(parts[1]) if parts[1].isdigit() else None,
                held=parts[2],
                effective_rps=float(parts[3]) if parts[3] else None,
                message=parts[4] if len(parts) > 4 else "",
            )
        )
    return out


def parse_replicas(text: str) -> list[tuple[float, int, int]]:
    """[(Unix s, spec replicas, ready replicas)] (reaction_time.first_above's events)."""
    out = []
    for line in text.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit():
            out.append((int(parts[0]) / 1e6, int(parts[1]), int(parts[2] or 0)))
    return out


def parse_samples(text: str) -> tuple[list[tuple[float, float]], int]:
    """openloop -samples CSV → ([(intended send time s, latency ms)], failed requests)."""
    samples, failed = [], 0
    for line in text.splitlines()[1:]:
        due, lat, ok = line.split(",")
        samples.append((int(due) / 1000, float(lat)))
        failed += ok.strip() not in ("1", "true")
    return samples, failed


def neighbour_start(meta: dict) -> float:
    """When the neighbour's container started (its startedAt, whole seconds, so ≤ 1 s early),
    never before its Deployment was applied."""
    apply = meta["applyUnixUs"] / 1e6
    started = meta.get("neighbourStartedAt") or ""
    if not started:
        return apply
    return max(apply, datetime.fromisoformat(started.replace("Z", "+00:00")).timestamp())


def state_at(events: list[ClassEvent], t: float) -> ClassEvent | None:
    """The class as last seen at time t (None before the first event)."""
    last = None
    for e in events:
        if e.t > t:
            break
        last = e
    return last


def silent_violation(
    series: list[tuple[float, float, int]], events: list[ClassEvent], t0: float, target: float
) -> tuple[float, float]:
    """(longest, total) seconds over target while the class did not say SloHeld=False: violation
    it reported as all well. A window over target counts the part of it (to 0.1 s) before the
    class said SloHeld=False; `series` starts are relative to t0."""
    step = 0.1
    longest = total = run = 0.0
    prev_end = None
    for start, value, _ in series:
        if value <= target:
            run, prev_end = 0.0, None
            continue
        if prev_end != start:
            run = 0.0
        for i in range(round(WINDOW_S / step)):
            state = state_at(events, t0 + start + i * step)
            if state is None or state.held != "False":
                run += step
                total += step
                longest = max(longest, run)
            else:
                run = 0.0
        prev_end = start + WINDOW_S
    return round(longest, 1), round(total, 1)


def first_event(events: list[ClassEvent], t0: float, test) -> float | None:
    return next((e.t - t0 for e in events if e.t >= t0 and test(e)), None)


@dataclass(frozen=True)
class Phase:
    phase: str
    calibrated_rps: float  # the phase's in-context calibration, per pod
    calibration: str  # its context, node busy and generator CPU
    rate_rps: float
    achieved_rps: float
    generator_cpu_pct: float
    requests: int
    failed: int
    p95_before_ms: float  # the LEAD seconds alone, after the first window
    peak_p95_ms: float  # 5 s windows after the neighbour's start
    over_target_pct: float  # requests after the neighbour's start over the target
    held_at_start: str  # SloHeld when the neighbour started
    held_false_s: float | None  # neighbour start → SloHeld=False
    plan_raised_s: float | None  # → the class's plan replicas above those at the start
    spec_raised_s: float | None  # → the Deployment's replicas raised (plan, KEDA or direct path)
    ready_raised_s: float | None  # → a new replica ready
    back_s: float | None  # → p95 back under target for good (0: it never broke)
    silent_longest_s: float
    silent_total_s: float
    plan_end: int | None
    effective_end_rps: float | None
    gold_cpu_ms_per_req_alone: float | None  # the gold pod's cgroup CPU per request, alone
    gold_cpu_ms_per_req_neighbour: float | None  # … while the neighbour ran (one pod: "off")
    gold_millicores_neighbour: float | None
    neighbour_millicores: float | None
    node_busy_alone_pct: float | None
    node_busy_neighbour_pct: float | None
    neighbour_preempted_s: float | None = None  # → the neighbour's first pod preempted

    def goals(self) -> tuple[bool, bool]:
        """(p95 back under target ≤ 60 s, no silent violation longer than 30 s)."""
        return (
            self.back_s is not None and self.back_s <= BACK_GOAL_S,
            self.silent_longest_s <= SILENT_GOAL_S,
        )


def cpu_between(a: dict, b: dict, key: str) -> tuple[float, float]:
    """(CPU ms, wall s) of cgroup `key` between two snapshots."""
    return (b[key] - a[key]) / 1e6, (b["unixUs"] - a["unixUs"]) / 1e6


def analyse(
    meta: dict,
    samples: list[tuple[float, float]],
    failed: int,
    load: dict,
    class_events: list[ClassEvent],
    replica_events: list[tuple[float, int, int]],
    cpu: dict[str, dict],
    stat: dict[str, str],
    calibration: dict | None = None,
    preemptions: list[dict] | None = None,
) -> Phase:
    t0 = neighbour_start(meta)
    cal = calibration or {}
    target = meta["targetMs"]
    end = t0 + meta["observeSeconds"] + 30  # the load's own bound ends it first
    after = windows(samples, t0, end, WINDOW_S)
    lead = [lat for t, lat in samples if t0 - meta["leadSeconds"] + WINDOW_S <= t < t0]
    hold = [lat for t, lat in samples if t >= t0]
    start_state = state_at(class_events, t0)
    plan0 = start_state.plan if start_state and start_state.plan else 1
    spec0 = next((r[1] for r in reversed(replica_events) if r[0] <= t0), 1)
    ready0 = next((r[2] for r in reversed(replica_events) if r[0] <= t0), 1)
    spec = first_above(replica_events, 1, spec0, t0)
    ready = first_above(replica_events, 2, ready0, t0)
    alone = cpu.get("start"), cpu.get("apply")
    during = cpu.get("apply"), cpu.get("end")

    def per_request(pair, lo: float, hi: float) -> float | None:
        # a run whose snapshots read the first gold pod only ("goldPods" absent) lost the
        # requests of the pods added after the neighbour's start
        if not all(pair) or ("goldPods" not in pair[1] and spec is not None and spec < hi):
            return None
        ms, _ = cpu_between(*pair, "goldCpuNs")
        n = sum(1 for t, _ in samples if lo <= t < hi)
        return round(ms / n, 3) if n else None

    def millicores(pair, key: str) -> float | None:
        if not all(pair):
            return None
        ms, wall = cpu_between(*pair, key)
        return round(ms / wall, 1) if wall > 0 else None

    def busy(a: str, b: str) -> float | None:
        if a not in stat or b not in stat:
            return None
        return round(100 * utilisation(stat[a], stat[b]), 1)

    silent = silent_violation(after, class_events, t0, target)
    # the rate's steps (a first step at half the rate warms the pool up)
    steps = [st for st in load.get("steps") or [] if st.get("offeredRps") == meta["rateRps"]]
    achieved = statistics.mean(st["achievedRps"] for st in steps) if steps else 0.0
    last = class_events[-1] if class_events else None
    lo_a = alone[0]["unixUs"] / 1e6 if alone[0] else 0.0
    hi_a = alone[1]["unixUs"] / 1e6 if alone[1] else 0.0
    hi_d = during[1]["unixUs"] / 1e6 if during[1] else 0.0
    return Phase(
        phase=meta["phase"],
        calibrated_rps=meta["calibratedRps"],
        calibration=(
            f"{cal.get('context', '?')}, node busy {cal.get('nodeBusyPct', '?')} %, generator"
            f" {cal.get('generatorCpuPct', '?')} % CPU, {cal.get('achievedRps', '?')} req/s"
            if cal
            else "the first phase's in-context cut-off, declared"
        ),
        rate_rps=meta["rateRps"],
        achieved_rps=round(achieved, 1),
        generator_cpu_pct=float((load.get("generator") or {}).get("cpuPct", 0.0)),
        requests=len(samples),
        failed=failed,
        p95_before_ms=round(p95(lead), 1) if lead else 0.0,
        peak_p95_ms=round(max((v for _, v, _ in after), default=0.0), 1),
        over_target_pct=round(100 * sum(lat > target for lat in hold) / max(1, len(hold)), 1),
        held_at_start=start_state.held if start_state and start_state.held else "none",
        held_false_s=_round(first_event(class_events, t0, lambda e: e.held == "False")),
        plan_raised_s=_round(
            first_event(class_events, t0, lambda e: e.plan is not None and e.plan > plan0)
        ),
        spec_raised_s=_round(None if spec is None else spec - t0),
        ready_raised_s=_round(None if ready is None else ready - t0),
        back_s=recovered_at(after, target),
        silent_longest_s=silent[0],
        silent_total_s=silent[1],
        plan_end=last.plan if last else None,
        effective_end_rps=last.effective_rps if last else None,
        gold_cpu_ms_per_req_alone=per_request(alone, lo_a, hi_a),
        gold_cpu_ms_per_req_neighbour=per_request(during, hi_a, hi_d),
        gold_millicores_neighbour=millicores(during, "goldCpuNs"),
        neighbour_millicores=millicores(during, "neighbourCpuNs"),
        node_busy_alone_pct=busy("start", "apply"),
        node_busy_neighbour_pct=busy("apply", "end"),
        neighbour_preempted_s=_round(
            preempted_after(preemptions or [], t0, meta.get("neighbourName", "noisy-neighbour"))
        ),
    )


def preempted_after(events: list[dict], t0: float, neighbour: str) -> float | None:
    """Seconds from `t0` to the first `Preempted` Event of a pod of the `neighbour` Deployment at
    or after it (Events of an earlier phase stay in the namespace for an hour); None when the
    neighbour was never preempted."""
    times = []
    for e in events:
        if not (e.get("involvedObject") or {}).get("name", "").startswith(neighbour + "-"):
            continue
        stamp = (
            e.get("lastTimestamp")
            or e.get("firstTimestamp")
            or e.get("eventTime")
            or (e.get("metadata") or {}).get("creationTimestamp")
        )
        if e.get("reason") == "Preempted" and stamp:
            t = datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
            if t >= t0 - 1:  # Event times are whole seconds
                times.append(max(0.0, t - t0))
    return min(times) if times else None


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 1)


# ---------------------------------------------------------------------------- text


def fmt(v: float | None, unit: str = " s") -> str:
    return "never" if v is None else f"{v:g}{unit}"


def table(runs: list[tuple[str, list[Phase]]]) -> str:
    rows = [
        "| run | verification loop | calibrated | load (achieved) | generator CPU | p95 alone"
        " | SloHeld at start | → SloHeld=False | → plan raised | → replicas raised"
        " | → new replica ready"
        " | → p95 back under target | peak p95 (5 s) | requests over target"
        " | longest / total violation reported as well | plan, effective cut-off at the end |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, phases in runs:
        for p in phases:
            eff = "—" if p.effective_end_rps is None else f"{p.effective_end_rps:g} req/s"
            rows.append(
                f"| {name} | {p.phase} | {p.calibrated_rps:g} req/s"
                f" | {p.rate_rps:g} ({p.achieved_rps:g}) req/s"
                f" | {p.generator_cpu_pct:g} % | {p.p95_before_ms:g} ms | {p.held_at_start}"
                f" | {fmt(p.held_false_s)} | {fmt(p.plan_raised_s)} | {fmt(p.spec_raised_s)}"
                f" | {fmt(p.ready_raised_s)}"
                f" | {fmt(p.back_s)} | {p.peak_p95_ms:g} ms | {p.over_target_pct:g} %"
                f" | {p.silent_longest_s:g} s / {p.silent_total_s:g} s"
                f" | {p.plan_end if p.plan_end is not None else '—'}, {eff} |"
            )
    return "\n".join(rows)


def spread(xs: list[float]) -> str:
    """mean ± sample standard deviation (n = 1: the value alone), with n."""
    if not xs:
        return "no run"
    if len(xs) == 1:
        return f"{xs[0]:g} s (1 run)"
    return f"{statistics.mean(xs):.1f} ± {statistics.stdev(xs):.1f} s (n = {len(xs)})"


def verdict(runs: list[tuple[str, list[Phase]]]) -> list[str]:
    """The goals, judged on every run's loop-on phase (the loop-off phase is the reference)."""
    on = [p for _, ps in runs for p in ps if p.phase == "on"]
    off = [p for _, ps in runs for p in ps if p.phase == "off"]
    back = [p.back_s for p in on]
    back_ok = all(p.goals()[0] for p in on) and bool(on)
    silent_ok = all(p.goals()[1] for p in on) and bool(on)
    lines = [
        f"- **p95 back under target ≤ {BACK_GOAL_S:g} s after the neighbour starts** (loop on):"
        f" {'met' if back_ok else 'not met'} — "
        + ", ".join(fmt(b) for b in back)
        + (f"; {spread([b for b in back if b is not None])}" if back else ""),
        f"- **never more than {SILENT_GOAL_S:g} s of violation while the class reports all well**"
        f" (loop on): {'met' if silent_ok else 'not met'} — longest "
        + ", ".join(f"{p.silent_longest_s:g} s" for p in on),
        "- reference, loop off: p95 back "
        + ", ".join(fmt(p.back_s) for p in off)
        + "; longest violation reported as well "
        + ", ".join(f"{p.silent_longest_s:g} s" for p in off),
        "- loop on, neighbour start → SloHeld=False: "
        + spread([p.held_false_s for p in on if p.held_false_s is not None])
        + "; → plan raised: "
        + spread([p.plan_raised_s for p in on if p.plan_raised_s is not None]),
    ]
    lines += [
        f"- {name} {p.phase}: **the neighbour was preempted** {fmt(p.neighbour_preempted_s)}"
        " after its start (the class's new pods outrank it): what followed is its eviction, not"
        " the pool carrying the load beside it"
        for name, ps in runs
        for p in ps
        if p.neighbour_preempted_s is not None
    ]
    return lines


def cpu_lines(runs: list[tuple[str, list[Phase]]]) -> list[str]:
    """The gold pods' CPU per request alone and beside the neighbour (their cgroups, all pods)."""
    out = []
    for name, phases in runs:
        for p in phases:
            if p.gold_cpu_ms_per_req_alone is None:
                continue
            out.append(
                f"- {name} {p.phase}: gold {p.gold_cpu_ms_per_req_alone:g} ms of CPU per request"
                f" alone (node busy {fmt(p.node_busy_alone_pct, ' %')}), "
                f"{fmt(p.gold_cpu_ms_per_req_neighbour, ' ms')} beside the neighbour"
                f" (gold {fmt(p.gold_millicores_neighbour, 'm')}, neighbour"
                f" {fmt(p.neighbour_millicores, 'm')}, node busy"
                f" {fmt(p.node_busy_neighbour_pct, ' %')})"
            )
    return out


# ---------------------------------------------------------------------------- files


def read_phase(d: Path) -> Phase:
    samples, failed = parse_samples((d / "samples.csv").read_text())
    marks = ("start", "apply", "end")
    cpu = {m: json.loads((d / f"cpu-{m}.json").read_text()) for m in marks}
    stat = {m: (d / f"stat-{m}").read_text() for m in marks}
    cal = d / "calibration.json"
    pre = d / "preempted.json"
    return analyse(
        json.loads((d / "meta.json").read_text()),
        samples,
        failed,
        json.loads((d / "load.json").read_text()),
        parse_class((d / "class.txt").read_text()),
        parse_replicas((d / "replicas.txt").read_text()),
        cpu,
        stat,
        json.loads(cal.read_text()) if cal.exists() else None,
        json.loads(pre.read_text()).get("items", []) if pre.exists() else None,
    )


def read_run(run: Path) -> list[Phase]:
    phases = [read_phase(run / p) for p in PHASES if (run / p / "meta.json").exists()]
    (run / "summary.json").write_text(json.dumps([asdict(p) for p in phases], indent=2) + "\n")
    return phases


def plot(run: Path, out: Path) -> None:
    """p95 per 5 s window and the ready replicas over time since the neighbour's start, both
    phases; the loop-on phase's SloHeld=False and plan raise marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, axr) = plt.subplots(2, 1, figsize=(10, 6.5), sharex=True, height_ratios=[3, 1])
    target, title = None, "a neighbour starts on the node at t = 0"
    for i, name in enumerate(PHASES):
        d = run / name
        if not (d / "meta.json").exists():
            continue
        meta = json.loads((d / "meta.json").read_text())
        samples, _ = parse_samples((d / "samples.csv").read_text())
        t0, target = neighbour_start(meta), meta["targetMs"]
        if meta["kind"] == "none":  # the steady run (steady.py): no neighbour
            title = "no neighbour; the observed span starts at t = 0"
        lead = meta["leadSeconds"]
        series = windows(samples, t0 - lead, t0 + meta["observeSeconds"] + 30, WINDOW_S)
        xs = [s - lead + WINDOW_S / 2 for s, _, _ in series]
        ax.plot(xs, [v for _, v, _ in series], marker=".", color=f"C{i}", label=LABELS[name])
        events = parse_class((d / "class.txt").read_text())
        at_t0 = state_at(events, t0)
        plan0 = (at_t0.plan if at_t0 else None) or 1  # a raise is above the plan at t = 0
        for label, test, style in (
            ("SloHeld=False", lambda e: e.held == "False", ":"),
            ("plan raised", lambda e, p0=plan0: (e.plan or 1) > p0, "-."),
        ):
            t = first_event(events, t0, test)
            if t is not None:
                ax.axvline(
                    t, color=f"C{i}", linestyle=style, linewidth=1, label=f"{label} ({name})"
                )
        reps = parse_replicas((d / "replicas.txt").read_text())
        axr.plot(*ready_steps(reps, t0, -float(lead), meta["observeSeconds"]), color=f"C{i}")
    finish_latency_plot(
        fig, ax, axr, target,
        f"Gold at 80 % of its in-context cut-off; {title}",
        "p95 per 5 s (ms, log)", "seconds since t = 0",
    )  # fmt: skip
    fig.savefig(out, dpi=110)
    plt.close(fig)


def section(
    runs: list[tuple[str, list[Phase]]],
    meta: dict,
    host: str,
    plots: list[str],
    costs: list[tuple[str, float, int]] | None = None,
    notes: dict[str, str] | None = None,
) -> str:
    """docs/benchmarks-log.md's section: the setting, every run's phases, the goals, the plots."""
    kind = meta["kind"]
    neighbour = {
        "cpu": f"`saas-bench soak --workers {meta['neighbourThreads']}` (CPU-bound threads)",
        "io": f"{meta['neighbourThreads']} busybox `dd` writers of 256 MiB files with fsync"
        " (IO-bound)",
        "mem": f"{meta['neighbourThreads']} busybox `dd` streams of /dev/zero to /dev/null in"
        " 32 MiB blocks (memory-bandwidth-bound, each block larger than the last-level cache)",
    }[kind]
    cal = "; ".join(f"{n} {p.phase}: {p.calibration}" for n, ps in runs for p in ps)
    return "\n".join(
        [
            f"## Noisy neighbour ({kind})",
            "",
            f"{host}. `bench/isolato-bench neighbour --kind {kind}` (bench/sh/neighbour.sh,"
            " SAC'20's setting) on a fresh localkube test cluster, nothing pinned:"
            f" a gold-like class (one {meta['podCpu']} pod, p95 target {meta['targetMs']} ms,"
            f" pivot {meta['pivotPercent']} %, at most {meta['maxReplicas']} replicas, declared at"
            f" the stored gold-alone figure {meta['declaredRps']} req/s per pod) is calibrated in"
            f" context in the first phase (the calibrated column; {cal}); its tenant (profile cpu"
            f" {meta['profileCpu']}) commits {meta.get('commitPct', '—')} % of that cut-off and"
            f" sends {meta['sharePct']} % of it open-loop through the class Service (admission off;"
            " a new connection per request; 10 s at half the rate first), alone for"
            f" {meta['leadSeconds']} s; then a neighbour Isolato does not manage starts on the node"
            f" — a plain Deployment of one pod, {neighbour}, CPU request"
            f" {meta['neighbourCpuRequest']} and no limit — and the load goes on for"
            f" {meta['observeSeconds']} s. Two phases in one run, in this order: the controller"
            " with its verification loop off (`ISOLATO_VERIFICATION=false`), then on, each with a"
            " fresh class of that definition (a pool one phase scaled out would start the next"
            " wider; the second declares the first's in-context cut-off: two calibrations minutes"
            " apart on this shared machine gave 132 and 66 req/s). The autoscalers are as shipped"
            " in both: KEDA's ScaledObject (rate and p95 triggers) and the direct path."
            " Times are from the neighbour container's start (its `startedAt`, ≤ 1 s early);"
            " class and replica changes are watch events stamped on arrival (≤ 0.1 s late);"
            f" p95 is judged over {WINDOW_S:g} s windows of the requests' intended send times"
            f" (so p95 times are ±{WINDOW_S:g} s). 'Violation reported as well': windows over"
            " target while the class did not say `SloHeld=False`. Raw data:"
            f" results/neighbour-{kind}/.",
            "",
            table(runs),
            "",
            *[f"Run {n}: {t.strip()}" + "\n" for n, t in sorted((notes or {}).items())],
            *verdict(runs),
            "",
            *[f"![p95 over time, run {p.split('/')[-2]}]({p})" for p in plots],
            "",
            "The gold pods' own cgroup CPU per request (gate + saas-bench; pods the phase added"
            " counted from their start):",
            "",
            *cpu_lines(runs),
            "",
            *([*machine_lines(costs, runs, meta["profileCpu"]), ""] if costs else []),
        ]
    )


# The stored calibration the issue compares against (results/gold-alone, docs/benchmarks-log.md
# "instruments"): 165 req/s per 400m pod, the pod's cgroup CPU 2.27 ms per request (referee).
STORED_CUTOFF_RPS = 165.0
STORED_CPU_MS_PER_REQ = 2.27


def unit_costs(text: str) -> list[tuple[str, float, int]]:
    """bench/sh/cpu-unit.sh's lines → [(context, CPU ms per unit, units measured)]."""
    out = []
    for line in text.splitlines():
        if line.strip():
            r = json.loads(line)
            out.append((r["context"], round(1000 * r["cpuSeconds"] / r["units"], 5), r["units"]))
    return out


def machine_lines(
    costs: list[tuple[str, float, int]], runs: list[tuple[str, list[Phase]]], profile_cpu: int
) -> list[str]:
    """Stored calibration vs this machine, by measurement: a CPU unit's cost per context, the
    gold pods' CPU per request, and the cut-off the pod's quota would give at that cost."""
    lines = [
        "CPU per request per machine and context (`bench/sh/cpu-unit.sh`: the CPU time of"
        " `saas-bench soak` per unit of 10,000 xorshift64 steps, from its own /proc CPU time, so"
        " other work on the machine slows the wall clock, not the figure):",
        "",
    ]
    lines += [
        f"- {ctx}: {ms:g} ms per CPU unit ({n:,} units) → profile cpu {profile_cpu}:"
        f" {ms * profile_cpu:.2f} ms of CPU per request in the stress function alone"
        for ctx, ms, n in costs
    ]
    alone = [p.gold_cpu_ms_per_req_alone for _, ps in runs for p in ps]
    alone = [a for a in alone if a is not None]
    cal = [p.calibrated_rps for _, ps in runs for p in ps]
    if alone and cal:
        mean_cpu = statistics.mean(alone)
        lines += [
            "",
            f"The stored gold-alone calibration: {STORED_CUTOFF_RPS:g} req/s per 400m pod at"
            f" {STORED_CPU_MS_PER_REQ:g} ms of pod CPU per request (keep-alive connections,"
            " generator on CPU 0, pods on CPU 1). Here, in context (nothing pinned, a new"
            f" connection per request): {mean_cpu:.2f} ms per request alone"
            f" ({mean_cpu / STORED_CPU_MS_PER_REQ:.2f}× the stored figure), so the 400m quota"
            f" would carry {400 / mean_cpu:.0f} req/s at most; the in-context calibrations found"
            f" {', '.join(f'{c:g}' for c in cal)} req/s"
            f" ({statistics.mean(cal) / STORED_CUTOFF_RPS:.2f}× the stored cut-off).",
        ]
    return lines
