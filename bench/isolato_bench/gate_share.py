"""The gate's fixed CPU share under load (`isolato-bench gate-share`): bench/sh/gate-share.sh loads
the httpbin-alone pod at half and at all of its measured cut-off and reads the gate's and the app's
own cpu cgroups; this renders the section of docs/benchmarks-log.md from its gate-share.json. The
reference measured in the same run is the app container beside the gate, and the 50m the
controller assumes for the gate (Workload.GATE_CPU_MILLIS)."""

from __future__ import annotations

from typing import Any

ASSUMED_MILLICORES = 50.0  # Workload.GATE_CPU_MILLIS
HEADER = (
    "| share of cut-off | req/s offered / achieved | p95 ms | gate m | gate / 50m |"
    " gate throttled periods | app m | gate / app | gate µs per request |"
)


def row(r: dict[str, Any]) -> str:
    g, a = r["gate"], r["app"]
    per_request_us = g["cpuMillicores"] / r["achievedRps"] * 1000 if r["achievedRps"] else 0.0
    return (
        f"| {r['shareOfCutoff'] * 100:.0f} % | {r['offeredRps']:.1f} / {r['achievedRps']:.1f}"
        f" | {r['p95Ms']:.1f} | {g['cpuMillicores']:.1f} |"
        f" {g['cpuMillicores'] / ASSUMED_MILLICORES:.2f}"
        f" | {g['throttledPeriods']} of {g['periods']} | {a['cpuMillicores']:.1f}"
        f" | {g['cpuMillicores'] / a['cpuMillicores']:.2f} | {per_request_us:.0f} |"
    )


def holds(data: dict[str, Any], headroom: float = 0.9) -> bool:
    """Whether 50m carries the gate at the cut-off: below 90 % of it and never throttled."""
    top = max(data["runs"], key=lambda r: r["shareOfCutoff"])["gate"]
    return top["cpuMillicores"] < headroom * ASSUMED_MILLICORES and top["throttledPeriods"] == 0


def report(data: dict[str, Any], host: str, load0: str, load1: str) -> str:
    verdict = "holds" if holds(data) else "holds only just or not"
    return "\n".join(
        [
            "## Gate's fixed CPU share under load (`isolato-bench gate-share`)",
            "",
            f"{data['date']}; {host}; load average {load0} before, {load1} after. The"
            f" httpbin-alone pod (100m: go-httpbin 50m, isolato-gate 50m) under 30 s of open-loop"
            f" `{data['endpoint']}` at half and all of its measured cut-off"
            f" ({data['measuredCutoffRps']:g} req/s); CPU from each container's own cgroup"
            " (cpuacct, cpu.stat), the app beside it as the reference.",
            "",
            HEADER,
            "|---|---|---|---|---|---|---|---|---|",
            *[row(r) for r in data["runs"]],
            "",
            f"The assumed 50m {verdict} at this class's cut-off (goal: under 90 % of it, never"
            " throttled).",
        ]
    )
