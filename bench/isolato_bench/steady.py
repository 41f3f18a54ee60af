"""False alarms on a steady run (issue 34 item 3; `isolato-bench neighbour --kind none`).

bench/sh/neighbour.sh with KIND=none starts no neighbour: gold is held at SHARE % of its in-context
cut-off for OBSERVE seconds with the verification loop on (one phase, `on`), and the run shows
how often the class calls an SLO failure, or scales, when nothing changed. The run directory is
the neighbour benchmark's (neighbour.py parses it); everything here is pure but the plot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reaction_time import p95, windows

from .neighbour import WINDOW_S, ClassEvent, state_at

KIND = "none"
CONFIDENCE = 0.95
K_OF_N = (3, 4)  # the verification loop's rule (VerificationPolicy.defaults()): 3 of 4 windows


def poisson_upper(count: int, confidence: float = CONFIDENCE) -> float:
    """The one-sided upper confidence bound of a Poisson mean after `count` events: the mean
    under which seeing ≤ count events has probability 1 − confidence (count 0: −ln 0.05 ≈ 3,
    the rule of three)."""

    def cdf(mean: float) -> float:
        term = total = math.exp(-mean)
        for i in range(1, count + 1):
            term *= mean / i
            total += term
        return total

    lo, hi = float(count), count + 10 + 10 * math.sqrt(count + 1)
    for _ in range(100):  # the CDF falls with the mean: bisect on it
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) > 1 - confidence else (lo, mid)
    return round(hi, 3)


def rate(count: int, hours: float) -> str:
    """`count` events in `hours` as a rate per hour, with its 95 % upper bound."""
    if hours <= 0:
        return f"{count} (no time observed)"
    per_hour = count / hours
    return (
        f"{count} in {hours * 60:.1f} min = {per_hour:.1f} per hour"
        f" (95 % upper bound {poisson_upper(count) / hours:.1f} per hour)"
    )


def transitions(events: list[ClassEvent], t0: float, t1: float) -> list[float]:
    """Times (relative to t0) when SloHeld became False in [t0, t1) — counted from the state the
    class was in at t0, so a class already failing at the start counts no new alarm."""
    prev = state_at(events, t0)
    held = prev.held if prev else ""
    out = []
    for e in events:
        if t0 < e.t < t1:
            if e.held == "False" and held != "False":
                out.append(round(e.t - t0, 1))
            held = e.held
    return out


def raises(levels: list[tuple[float, int]], t0: float, t1: float) -> list[float]:
    """Times (relative to t0) when a level (plan or Deployment replicas) rose in (t0, t1)."""
    before = [v for t, v in levels if t <= t0]
    level = before[-1] if before else None
    out = []
    for t, v in levels:
        if t0 < t < t1:
            if level is not None and v > level:
                out.append(round(t - t0, 1))
            level = v
    return out


def k_of_n(over: list[bool], k: int = K_OF_N[0], n: int = K_OF_N[1]) -> int:
    """How many windows end a stretch of n with ≥ k over target (the loop's rule, held against
    the client's windows: how often the requests alone would have justified an alarm)."""
    return sum(1 for i in range(n - 1, len(over)) if sum(over[i - n + 1 : i + 1]) >= k)


@dataclass(frozen=True)
class Steady:
    minutes: float
    rate_rps: float
    calibrated_rps: float
    requests: int
    failed: int
    p95_ms: float  # all requests of the observed span
    peak_p95_ms: float  # the worst 5 s window
    windows: int
    windows_over: int
    longest_over: int  # consecutive windows over target
    k_of_n_windows: int  # client windows ending 3 of 4 over target
    held_false_at: list[float]  # s since the observed span's start
    plan_raised_at: list[float]
    replicas_raised_at: list[float]
    effective_end_rps: float | None

    def hours(self) -> float:
        return self.minutes / 60


def analyse(
    meta: dict,
    samples: list[tuple[float, float]],
    failed: int,
    class_events: list[ClassEvent],
    replica_events: list[tuple[float, int, int]],
    t0: float,
) -> Steady:
    """The observed span is [t0, t0 + observeSeconds): the load after its LEAD seconds."""
    target = meta["targetMs"]
    t1 = t0 + meta["observeSeconds"]
    series = windows(samples, t0, t1, WINDOW_S)
    over = [v > target for _, v, _ in series]
    longest = run = 0
    for o in over:
        run = run + 1 if o else 0
        longest = max(longest, run)
    span = [lat for t, lat in samples if t0 <= t < t1]
    plans = [(e.t, e.plan) for e in class_events if e.plan is not None]
    last = state_at(class_events, t1)
    return Steady(
        minutes=round(meta["observeSeconds"] / 60, 2),
        rate_rps=meta["rateRps"],
        calibrated_rps=meta["calibratedRps"],
        requests=len(span),
        failed=failed,
        p95_ms=round(p95(span), 1) if span else 0.0,
        peak_p95_ms=round(max((v for _, v, _ in series), default=0.0), 1),
        windows=len(series),
        windows_over=sum(over),
        longest_over=longest,
        k_of_n_windows=k_of_n(over),
        held_false_at=transitions(class_events, t0, t1),
        plan_raised_at=raises(plans, t0, t1),
        replicas_raised_at=raises([(t, s) for t, s, _ in replica_events], t0, t1),
        effective_end_rps=last.effective_rps if last else None,
    )


def lines(s: Steady) -> list[str]:
    """The figures, one per line (printed and in the section)."""
    at = ", ".join

    def when(ts: list[float]) -> str:
        return f" (at {at(f'{t:g} s' for t in ts)})" if ts else ""

    return [
        f"- load: {s.rate_rps:g} req/s of a {s.calibrated_rps:g} req/s in-context cut-off for"
        f" {s.minutes:g} min, {s.requests:,} requests ({s.failed} failed); p95 {s.p95_ms:g} ms,"
        f" worst {WINDOW_S:g} s window {s.peak_p95_ms:g} ms",
        f"- {WINDOW_S:g} s windows over target: {s.windows_over} of {s.windows}"
        f" (longest stretch {s.longest_over}); windows ending {K_OF_N[0]} of {K_OF_N[1]} over"
        f" target (the loop's rule on the client's windows): {s.k_of_n_windows}",
        f"- **false alarms (SloHeld=False): {rate(len(s.held_false_at), s.hours())}**"
        + when(s.held_false_at),
        f"- plan raises: {rate(len(s.plan_raised_at), s.hours())}" + when(s.plan_raised_at),
        "- replica raises (plan, KEDA or direct path):"
        f" {rate(len(s.replicas_raised_at), s.hours())}" + when(s.replicas_raised_at),
        f"- effective cut-off at the end: {fmt_rps(s.effective_end_rps)}",
    ]


def fmt_rps(v: float | None) -> str:
    return "— (none reported)" if v is None else f"{v:g} req/s"


def section(run: str, s: Steady, meta: dict, host: str, plot: str, note: str = "") -> str:
    """docs/benchmarks-log.md's section."""
    return "\n".join(
        [
            "## Steady run, no neighbour: false alarms",
            "",
            f"{host}. `bench/isolato-bench neighbour --kind none` (bench/sh/neighbour.sh with"
            " KIND=none) on a fresh localkube test cluster, nothing pinned: the noisy-neighbour"
            f" benchmark's gold-like class (one {meta['podCpu']} pod, p95 target"
            f" {meta['targetMs']} ms, pivot {meta['pivotPercent']} %, at most"
            f" {meta['maxReplicas']} replicas) is calibrated in context; its tenant (profile cpu"
            f" {meta['profileCpu']}) commits {meta.get('commitPct', '—')} % of that cut-off and"
            f" sends {meta['sharePct']} % of it open-loop through the class Service (admission"
            " off, a new connection per request) with the controller's verification loop on and"
            f" no neighbour: {meta['leadSeconds']} s of lead-in, then {meta['observeSeconds']} s"
            " observed. Nothing changes during the run, so every SloHeld=False and every scale-out"
            f" is a false alarm. The client's p95 is judged over {WINDOW_S:g} s windows of the"
            " requests' intended send times (the loop judges its own Prometheus windows); SloHeld"
            " and plan changes are watch events stamped on arrival; the upper bound is the"
            f" one-sided {CONFIDENCE:.0%} Poisson bound (≈ 3 ÷ hours observed when none was seen)."
            f" Raw data: results/neighbour-{KIND}/{run}/.",
            "",
            *lines(s),
            "",
            *([note.strip(), ""] if note.strip() else []),
            f"![p95 over time on a steady run]({plot})",
            "",
        ]
    )
