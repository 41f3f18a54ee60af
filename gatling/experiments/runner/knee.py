"""Finer ramps near the knee (issue 13, item 3): a confidence interval for a step's p95 and the
bisection between the last passing and the first failing step.

Pure functions. The bisection only steers which rates to probe; the cut-off itself stays the
controller's (CutoffDetector over the merged coarse + fine steps, posted once).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

RESOLUTION = 0.05  # the cut-off's resolution goal: <= 5 % of its value
MAX_PROBES = 6  # bisection steps: 15 -> 5 % of 90 takes 2; 6 covers a bracket 64x the goal
MAX_ERROR_RATE = 0.01  # the controller's default error threshold (docs/calibration-format.md)
_KNOWN = (("p50", 0.50), ("p90", 0.90), ("p95", 0.95), ("p99", 0.99))


def binom_cdf(k: int, n: int, p: float) -> float:
    """P(B <= k) for B ~ Binomial(n, p), summed in log space (n up to a few 10^4)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    lp, lq = math.log(p), math.log1p(-p)
    total = 0.0
    for i in range(k + 1):
        total += math.exp(
            math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq
        )
    return min(total, 1.0)


def quantile_ci_ranks(n: int, q: float = 0.95, confidence: float = 0.95) -> tuple[int, int]:
    """Distribution-free CI of the q-quantile from n samples: 1-based ranks (l, u) with
    P(X_(l) <= x_q <= X_(u)) >= confidence, since the number B of samples below x_q is
    Binomial(n, q) and the quantile lies in [X_(l), X_(u)] when l <= B < u. Equal tails, each
    at most (1 - confidence) / 2. A bound the sample is too small to give is 0 (no lower bound)
    or n + 1 (no upper bound: at q = 0.95 and 95 %, below 72 samples). The Java writer
    (QuantileInterval) and the Go referee compute the same ranks: the shared vectors in
    calibration-format/src/test/resources/quantile-ci-ranks.json hold all three to it."""
    if n < 1 or not 0 < q < 1 or not 0 < confidence < 1:
        raise ValueError(f"need n >= 1, 0 < q < 1, 0 < confidence < 1, not {n}, {q}, {confidence}")
    tail = (1 - confidence) / 2
    low = 0
    while low + 1 <= n and binom_cdf(low, n, q) <= tail:
        low += 1  # P(B <= low-1) <= tail: rank `low` is still a lower bound
    high = n + 1
    while high - 1 >= 1 and 1 - binom_cdf(high - 2, n, q) <= tail:
        high -= 1  # P(B >= high-1) <= tail: rank high-1 is still an upper bound
    return low, high


def p95_ci(summary: Mapping[str, Any], confidence: float = 0.95) -> dict[str, Any]:
    """The p95's confidence interval of one step summary. Generators that write the format's
    p95Low/p95High (the order statistics at quantile_ci_ranks) give it exactly; runs stored
    before that keep only p50/p90/p95/p99/max, so the interval is bracketed conservatively: the
    largest known percentile at or below the lower rank, the smallest at or above the upper
    one. A bound the sample cannot give is None."""
    n = int(summary["count"])
    low, high = quantile_ci_ranks(n, 0.95, confidence)
    low_level, high_level = low / n, high / n
    exact = "p95Low" in summary or "p95High" in summary
    if exact:
        low_ms, high_ms = summary.get("p95Low"), summary.get("p95High")
    else:
        below = [
            summary[k] for k, level in _KNOWN if level <= low_level and summary.get(k) is not None
        ]
        above = [
            summary[k] for k, level in _KNOWN if level >= high_level and summary.get(k) is not None
        ]
        low_ms = max(below) if below else (None if low == 0 else 0.0)
        high_ms = min(above) if above else (None if high > n else summary.get("max"))
    return {
        "confidence": confidence,
        "count": n,
        "p95": summary.get("p95"),
        "ranks": [low, high],
        "percentiles": [round(100 * low_level, 2), round(100 * high_level, 2)],
        "exact": exact,
        "lowMs": low_ms,
        "highMs": high_ms,
    }


def ci_overlap(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two p95_ci intervals share a value (a missing bound is unbounded)."""
    inf = float("inf")
    a_low, a_high = a["lowMs"] or 0.0, inf if a["highMs"] is None else a["highMs"]
    b_low, b_high = b["lowMs"] or 0.0, inf if b["highMs"] is None else b["highMs"]
    return a_low <= b_high and b_low <= a_high


def passes(step: Mapping[str, Any], target_ms: float) -> bool:
    """The steering test of a probe: p95 within the target and errors within 1 %."""
    total = step["total"]
    return total["p95"] <= target_ms and total["errors"] <= MAX_ERROR_RATE * total["count"]


def bracket(steps: Sequence[Mapping[str, Any]], target_ms: float) -> tuple[float, float] | None:
    """(last passing rate, first failing rate above it), by offered rate; None when no step
    fails or the lowest one already does (nothing to bisect)."""
    ordered = sorted(steps, key=lambda s: s["offeredRps"])
    last_pass = None
    for s in ordered:
        if passes(s, target_ms):
            last_pass = s["offeredRps"]
        elif last_pass is not None:
            return last_pass, s["offeredRps"]
        else:
            return None
    return None


def past_the_knee(
    steps: Sequence[Mapping[str, Any]], target_ms: float, dirty: set[int]
) -> set[int]:
    """Positions (in `steps`) of failing steps above a clean first failure: whatever contaminated
    them cannot move the cut-off, since each failed and a clean failure lies below it. `dirty`
    holds the positions of contaminated steps; none is past the knee when the first failure is
    itself one of them (it may have failed because of it)."""
    b = bracket(steps, target_ms)
    if b is None:
        return set()
    first_failures = [i for i, s in enumerate(steps) if s["offeredRps"] == b[1]]
    if any(i in dirty for i in first_failures):
        return set()
    return {
        i
        for i, s in enumerate(steps)
        if i in dirty and s["offeredRps"] > b[1] and not passes(s, target_ms)
    }


PAST_THE_KNEE = "failed above a clean first failure: cannot move the cut-off"
PASSED_DESPITE_STEAL = (
    "passed despite the steal or the load outside the pods, which only take capacity away:"
    " cannot move the cut-off"
)


def moot_steps(
    steps: Sequence[Mapping[str, Any]], target_ms: float, dirty: set[int], steal_only: set[int]
) -> dict[int, str]:
    """Contaminated steps (positions in `steps`) that cannot change the result, each with why:
    failing steps past the knee, and steps whose only fault is steal or load outside the pods
    that passed anyway (both remove CPU the quota does not see, so without them they would pass
    too) unless they set the
    low-load figure (the lowest rate), whose p95 the steal may have raised."""
    out = dict.fromkeys(past_the_knee(steps, target_ms, dirty), PAST_THE_KNEE)
    lowest = min((s["offeredRps"] for s in steps), default=None)
    for i in sorted(steal_only - out.keys()):
        if passes(steps[i], target_ms) and steps[i]["offeredRps"] != lowest:
            out[i] = PASSED_DESPITE_STEAL
    return out


def next_probe(passing: float, failing: float, resolution: float = RESOLUTION) -> float | None:
    """The rate to probe next (the midpoint, to 0.1 req/s), or None once failing - passing is
    within `resolution` of the passing rate."""
    if failing <= passing:
        raise ValueError(f"the failing rate {failing} must lie above the passing one {passing}")
    if failing - passing <= resolution * passing:
        return None
    return round((passing + failing) / 2, 1)
