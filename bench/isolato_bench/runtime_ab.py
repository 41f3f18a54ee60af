#!/usr/bin/env python3
"""Two OCI runtimes compared on the same pods in one run (`isolato-bench runtime-ab`): the
profiles cpu_profile.py wrote for each runtime and round, as ratios with their spread over the
rounds, a docs/benchmarks-log.md section, a JSON record and a plot.

main(MACHINE, PODS, REPEATS, LIMITED, OUT.json, [(LABEL, ROUND, DIR), ...]) → the section

DIR holds cpu-profile-1xPODS.json (cpu_profile.py's summary) and limited.txt ("SECONDS
MICROSECONDS": LIMITED pods with a 10m CPU limit and the RuntimeDefault seccomp profile, the time
to all Ready and their own cgroups' CPU per pod). The first label is the reference; a ratio is the
other runtime's median over the reference's in the same round.
"""

import json
import statistics
from datetime import UTC, datetime
from pathlib import Path

import matplotlib.pyplot as plt
from runner.places import plot_path

from . import cpu_profile

RUNTIME_GROUP = cpu_profile.GROUPS[0][0]  # the runtime's own processes: "runc"


def run_figures(run, pods):
    """One run's time to Ready, all CPU work (perf) and the runtime's CPU per pod."""
    return {
        "seconds": run["seconds"],
        "coreSeconds": sum(run["coreSeconds"].values()),
        "runtimeMsPerPod": 1000 * run["coreSeconds"].get(RUNTIME_GROUP, 0) / pods,
    }


METRICS = ("seconds", "coreSeconds", "runtimeMsPerPod")
LIMITED_METRICS = ("limitedSeconds", "limitedPodCpuMs")


def parse_limited(text):
    """limited.txt → the limited pods' figures."""
    seconds, micros = text.split()
    return {"limitedSeconds": float(seconds), "limitedPodCpuMs": int(micros) / 1000}


def compare(profiles, pods):
    """[(label, round, cpu_profile summary, limited figures)] → per-runtime medians and per-round
    ratios."""
    labels = list(dict.fromkeys(p[0] for p in profiles))
    if len(labels) != 2:
        raise ValueError(f"expected two runtimes, got {labels}")
    reference, other = labels
    figures = {}  # (label, round) → [run figures]
    limited = {}  # (label, round) → [limited figures]
    for label, rnd, summary, lim in profiles:
        figures.setdefault((label, rnd), []).extend(run_figures(r, pods) for r in summary["runs"])
        limited.setdefault((label, rnd), []).append(lim)
    rounds = sorted({rnd for _, rnd in figures})
    missing = [(lb, r) for r in rounds for lb in labels if (lb, r) not in figures]
    if missing:
        raise ValueError(f"a round lacks a runtime's profile: {missing}")

    def median(runs, m):
        return statistics.median(r[m] for r in runs)

    def of(key, m):
        return median((limited if m in LIMITED_METRICS else figures)[key], m)

    runtimes = {}
    for label in labels:
        runs = [r for rnd in rounds for r in figures[(label, rnd)]]
        lim = [x for rnd in rounds for x in limited[(label, rnd)]]
        runtimes[label] = {
            "runs": runs,
            "limited": lim,
            "median": {m: median(runs, m) for m in METRICS}
            | {m: median(lim, m) for m in LIMITED_METRICS},
            "groupsMsPerPod": group_medians([p[2] for p in profiles if p[0] == label], pods),
        }
    per_round = [
        {m: of((other, rnd), m) / of((reference, rnd), m) for m in METRICS + LIMITED_METRICS}
        for rnd in rounds
    ]
    ratios = {
        m: {
            "median": statistics.median(r[m] for r in per_round),
            "min": min(r[m] for r in per_round),
            "max": max(r[m] for r in per_round),
        }
        for m in METRICS + LIMITED_METRICS
    }
    return {
        "pods": pods,
        "reference": reference,
        "other": other,
        "rounds": len(rounds),
        "runtimes": runtimes,
        "ratiosPerRound": per_round,
        "ratios": ratios,
    }


def group_medians(summaries, pods):
    """CPU milliseconds per pod by process group, median over every run of the summaries."""
    runs = [r for s in summaries for r in s["runs"]]
    groups = {g for r in runs for g in r["coreSeconds"]}
    return {
        g: 1000 * statistics.median(r["coreSeconds"].get(g, 0) for r in runs) / pods for g in groups
    }


def change(ratio):
    return f"{100 * (ratio - 1):+.0f} %"


def markdown(c, machine, repeats, limited):
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    ref, other = c["reference"], c["other"]
    n = c["rounds"]
    rows = (
        ("time to all pods Ready (s)", "seconds", "{:.2f}"),
        ("CPU work, all processes (core-seconds, perf)", "coreSeconds", "{:.1f}"),
        ("the runtime's own CPU per pod (ms, perf)", "runtimeMsPerPod", "{:.0f}"),
        (
            f"{limited} limited pods (10m, seccomp): time to all Ready (s)",
            "limitedSeconds",
            "{:.2f}",
        ),
        (
            f"{limited} limited pods: CPU in each pod's own cgroup (ms, cpuacct)",
            "limitedPodCpuMs",
            "{:.1f}",
        ),
    )
    out = [
        f"### OCI runtime A/B: 1 × {c['pods']} pause pods started at once — {now} — {machine}",
        "",
        f"`isolato-bench runtime-ab {c['pods']} {repeats} {n} {limited}`: {n} rounds, each"
        f" {repeats} runs under **{ref}** then {repeats} under **{other}**"
        " (`isolato-bench cpu-profile`: kubectl creates the Deployment, `kubectl rollout status`"
        " times it,"
        " perf samples every CPU, the node settles between runs; switching restarts only"
        f" containerd), then {limited} pods shaped like Isolato's (the same pause pod with a 10m"
        " CPU limit and the RuntimeDefault seccomp profile) timed the same way, their CPU read from"
        " their own cgroups. A ratio is the second runtime's median over the first's in the same"
        f" round; its error is the spread over the {n} rounds.",
        "",
        "| figure (median of the runs) | first | second | ratio (min to max over rounds) |",
        "|---|---|---|---|",
    ]
    for name, m, fmt in rows:
        r = c["ratios"][m]
        out.append(
            f"| {name} | {fmt.format(c['runtimes'][ref]['median'][m])}"
            f" | {fmt.format(c['runtimes'][other]['median'][m])}"
            f" | {change(r['median'])} ({change(r['min'])} to {change(r['max'])}) |"
        )
    each = {
        lb: ", ".join(f"{r['seconds']:.2f}" for r in c["runtimes"][lb]["runs"])
        for lb in (ref, other)
    }
    out += [
        "",
        f"Runs, in order: first {each[ref]} s; second {each[other]} s.",
        "",
    ]
    return "\n".join(out)


def plot(c, out):
    ref, other = c["reference"], c["other"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [2, 3]})
    for x, label in enumerate((ref, other)):
        secs = [r["seconds"] for r in c["runtimes"][label]["runs"]]
        left.scatter([x] * len(secs), secs, color=f"C{x}", alpha=0.7)
        left.hlines(statistics.median(secs), x - 0.2, x + 0.2, color=f"C{x}")
    left.set_xticks([0, 1], [short(ref), short(other)], fontsize=7)
    left.set_xlim(-0.6, 1.6)
    left.set_ylim(bottom=0)
    left.set_ylabel("seconds until all pods Ready")
    groups = sorted(
        c["runtimes"][ref]["groupsMsPerPod"], key=lambda g: c["runtimes"][ref]["groupsMsPerPod"][g]
    )
    y = range(len(groups))
    for i, label in enumerate((ref, other)):
        ms = c["runtimes"][label]["groupsMsPerPod"]
        right.barh(
            [v + (0.2 if i == 0 else -0.2) for v in y],
            [ms.get(g, 0) for g in groups],
            0.4,
            label=short(label),
        )
    right.set_yticks(list(y), groups, fontsize=7)
    right.set_xlabel("CPU milliseconds per pod (perf, median of the runs)")
    right.legend(fontsize=7)
    cpu_profile.save(
        fig,
        f"1 x {c['pods']} pause pods: time {change(c['ratios']['seconds']['median'])},"
        f" CPU work {change(c['ratios']['coreSeconds']['median'])}"
        f" with {short(other)} instead of {short(ref)}",
        out,
    )


def short(label):
    """'runc version 1.5.2 (/path/runc)' → 'runc 1.5.2'."""
    words = label.split()
    return f"{words[0]} {words[2]}" if len(words) > 2 and words[1] == "version" else label


def main(
    machine: str,
    pods: int,
    repeats: int,
    limited: int,
    out: Path,
    rounds: list[tuple[str, int, Path]],
) -> str:
    """Compares the rounds (LABEL, ROUND, DIR), writes OUT and its plot, returns the section."""
    profiles = [
        (
            label,
            n,
            json.loads((d / f"cpu-profile-1x{pods}.json").read_text()),
            parse_limited((d / "limited.txt").read_text()),
        )
        for label, n, d in rounds
    ]
    c = compare(profiles, pods)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(c, indent=2) + "\n")
    plot(c, plot_path(out))
    return markdown(c, machine, repeats, limited)
