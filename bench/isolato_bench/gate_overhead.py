"""The gate's overhead (issue 33 item 5): one app reached directly, through isolato-gate,
through HAProxy 2.6 doing the same job and through HAProxy as a plain TCP relay (the floor of
any proxy in front of the app), open-loop load at shares of the app's cut-off; for an app as
cheap as saas-bench gets (profile cpu 2) and for one ten times dearer (cpu 20).

bench/sh/gate-overhead.sh measures (openloop JSON per mode, rate and repeat; CPU seconds of the
app and of the proxy from /proc and the app's request count per run, cpu.tsv), one directory
per app cost; this turns that into the cut-offs and the section of docs/benchmarks-log.md.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path

MODES = ("direct", "gate", "haproxy", "relay")
# the app's CPU work per request (saas-bench CPU units): as cheap as it gets, and ten times that
APP_UNITS = (2, 20)
SHARES = (20, 50, 80, 100)  # % of the cut-off
# The goal at 80 % of the cut-off (issue 33): at most 1 ms added to p99, at most 10 % CPU per
# request over the app's own, and no slower than HAProxy.
GOAL_SHARE, GOAL_P99_MS, GOAL_CPU = 80, 1.0, 0.10


def cutoff(ramp: dict, min_ratio: float = 0.97) -> float:
    """The highest offered rate of the ramp that every step up to it served: achieved at least
    `min_ratio` of offered and no errors. 0 when the first step fails already."""
    best = 0.0
    for step in ramp["steps"]:
        ok = step["achievedRps"] >= min_ratio * step["offeredRps"] and step["total"]["errors"] == 0
        if not ok:
            break
        best = step["offeredRps"]
    return best


@dataclass
class Cell:
    """One mode at one rate: medians over the repeats."""

    p50: float
    p99: float
    added_p50: float  # over direct, same repeat, then the median
    added_p99: float
    app_us: float  # CPU per request of the app, microseconds
    proxy_us: float  # ... of the proxy (0 direct)
    errors: int
    p99s: tuple[float, ...] = ()  # each repeat's p99, to show the spread


def load_runs(out: Path) -> tuple[dict, dict]:
    """latency[(mode, rate, repeat)]: openloop's total summary; cpu[...]: (app s, proxy s, n)."""
    latency, cpu = {}, {}
    for line in (out / "cpu.tsv").read_text().splitlines():
        mode, rate, rep, app_s, proxy_s, n = line.split("\t")
        key = (mode, int(float(rate)), int(rep))
        cpu[key] = (float(app_s), float(proxy_s), int(n))
        run = json.loads((out / f"{mode}-{rate}-{rep}.json").read_text())
        latency[key] = run["steps"][0]["total"]
    return latency, cpu


def cell(latency: dict, cpu: dict, mode: str, rate: int) -> Cell:
    """One mode at one rate, the medians over its repeats."""
    reps = sorted(rep for m, r, rep in latency if (m, r) == (mode, rate))

    def lat(m: str, rep: int, q: str) -> float:
        return latency[(m, rate, rep)][q] or 0.0

    def per_request_us(i: int, rep: int) -> float:
        n = cpu[(mode, rate, rep)][2]
        return cpu[(mode, rate, rep)][i] / n * 1e6 if n else 0.0

    def med(values) -> float:
        return statistics.median(list(values))

    return Cell(
        p50=med(lat(mode, rep, "p50") for rep in reps),
        p99=med(lat(mode, rep, "p99") for rep in reps),
        added_p50=med(lat(mode, rep, "p50") - lat("direct", rep, "p50") for rep in reps),
        added_p99=med(lat(mode, rep, "p99") - lat("direct", rep, "p99") for rep in reps),
        app_us=med(per_request_us(0, rep) for rep in reps),
        proxy_us=med(per_request_us(1, rep) for rep in reps),
        errors=sum(latency[(mode, rate, rep)]["errors"] for rep in reps),
        p99s=tuple(lat(mode, rep, "p99") for rep in reps),
    )


def cells(latency: dict, cpu: dict) -> dict[tuple[str, int], Cell]:
    return {(m, r): cell(latency, cpu, m, r) for m, r in sorted({(m, r) for m, r, _ in latency})}


def verdict(table: dict[tuple[str, int], Cell], rate80: int) -> dict[str, bool | float]:
    """The goal at 80 %: added p99, CPU share over the app's, and gate vs HAProxy; with the
    floor a TCP relay pays (its share, and the app cost at which even it would be 10 %)."""
    gate, hap = table[("gate", rate80)], table[("haproxy", rate80)]
    direct = table[("direct", rate80)]
    relay = table.get(("relay", rate80))

    def share(us: float) -> float:
        return us / direct.app_us if direct.app_us else float("inf")

    return {
        "added_p99_ms": gate.added_p99,
        "cpu_share": share(gate.proxy_us),
        "p99_ok": gate.added_p99 <= GOAL_P99_MS,
        "cpu_ok": share(gate.proxy_us) <= GOAL_CPU,
        "vs_haproxy_ok": gate.p99 <= hap.p99 and gate.proxy_us <= hap.proxy_us,
        "floor_us": relay.proxy_us if relay else float("nan"),
        "floor_share": share(relay.proxy_us) if relay else float("nan"),
        # the app's own CPU per request at which the relay alone would be the goal's 10 %
        "floor_app_us": relay.proxy_us / GOAL_CPU if relay else float("nan"),
    }


def row(share: int, rate: int, mode: str, c: Cell, direct: Cell) -> str:
    proxied = mode != "direct"
    dash = "—"
    cpu_share = f"{c.proxy_us / direct.app_us * 100:.1f} %" if proxied and direct.app_us else dash
    return (
        f"| {share} % ({rate}/s) | {mode} | {c.p50:.3f} | {c.p99:.3f} "
        f"({' / '.join(f'{x:.1f}' for x in c.p99s)}) | "
        f"{f'{c.added_p50:+.3f}' if proxied else dash} | "
        f"{f'{c.added_p99:+.3f}' if proxied else dash} | "
        f"{c.app_us:.1f} | {f'{c.proxy_us:.1f}' if proxied else dash} | {cpu_share} | {c.errors} |"
    )


HEADER = (
    "| load | path | p50 | p99 (each repeat) | added p50 | added p99 | app CPU/req | proxy CPU/req "
    "| proxy share | errors |"
)
SETUP = (
    "App: saas-bench, 1 worker, 1 I/O thread, tenants t1/t2 with the profile below and the same"
    " per-tenant rate limit at the app, the gate and HAProxy (stick table on the tenant's path"
    " segment); relay = HAProxy 2.6 in `mode tcp`, bytes passed between the client's connection"
    " and one to the app, nothing parsed or limited: the two TCP hops any proxy in front of the"
    " app pays, the floor. The app and the proxy in front of it share one core, the open-loop"
    " generator (build/openloop, even arrivals, keep-alive) has the other. Latency in ms as"
    " openloop sees it; added = path − direct in the same repeat. CPU per request in µs from"
    " /proc (utime+stime) over the app's request count; share = proxy CPU ÷ the app's own CPU"
    " per request."
)


@dataclass(frozen=True)
class Measured:
    """One app cost's run: its directory, the direct app's cut-off and the rates at SHARES."""

    units: int
    out: Path
    cut: float
    rates: list[int]


def profile_section(m: Measured, repeats: int) -> tuple[list[str], dict]:
    """One app cost's table and its sentence at 80 %; also the verdict."""
    latency, cpu = load_runs(m.out)
    table = cells(latency, cpu)
    rate80 = m.rates[SHARES.index(GOAL_SHARE)]
    v = verdict(table, rate80)
    modes = [mode for mode in MODES if (mode, rate80) in table]
    rows = [
        row(share, rate, mode, table[(mode, rate)], table[("direct", rate)])
        for share, rate in zip(SHARES, m.rates, strict=True)
        for mode in modes
    ]
    g, h = table[("gate", rate80)], table[("haproxy", rate80)]
    ratio_p99 = g.p99 / h.p99 if h.p99 > 0 else float("nan")
    ratio_cpu = g.proxy_us / h.proxy_us if h.proxy_us else float("nan")
    app_us = table[("direct", rate80)].app_us
    floor = (
        f" The relay alone takes {v['floor_us']:.1f} µs ({v['floor_share'] * 100:.1f} %): no proxy"
        f" in front of an app cheaper than {v['floor_app_us']:.0f} µs a request meets 10 % here."
        if "relay" in modes
        else ""
    )
    goal = "met" if v["p99_ok"] and v["cpu_ok"] and v["vs_haproxy_ok"] else "MISSED"
    lines = [
        f"### App at profile cpu {m.units} ({app_us:.0f} µs of CPU a request at 80 %)",
        "",
        f"Cut-off of the direct app (ramp; the highest step served at >= 97 % without errors):"
        f" {m.cut:.0f}/s; medians of {repeats} repeats, every path in each repeat.",
        "",
        HEADER,
        "|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        f"At 80 % ({rate80}/s) the gate adds {g.added_p99:+.3f} ms to p99"
        f" (goal <= {GOAL_P99_MS} ms) and {v['cpu_share'] * 100:.1f} % CPU per request"
        f" (goal <= {GOAL_CPU * 100:.0f} %);"
        f" gate/HAProxy: p99 {ratio_p99:.2f}x, proxy CPU per request {ratio_cpu:.2f}x.{floor}"
        f" Goal {goal}.",
        "",
    ]
    return lines, v


def report(measured: list[Measured], repeats: int, host: str, load0: str, load1: str) -> str:
    body: list[str] = []
    for m in measured:
        lines, _ = profile_section(m, repeats)
        body += lines
    return "\n".join(
        [
            "## Gate overhead: direct, isolato-gate, HAProxy 2.6, TCP relay"
            " (`isolato-bench gate-overhead`)",
            "",
            f"{host}; load average {load0} before, {load1} after. {SETUP}",
            "",
            *body,
        ]
    ).rstrip()
