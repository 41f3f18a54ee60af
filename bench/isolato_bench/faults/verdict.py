"""Pure logic of the fault runs (chaos.py) and the `make run` mode benchmark (run_modes.py).

No Kubernetes or HTTP here: what a run observed goes in as plain values, verdicts, error rates,
medians and Markdown tables come out, so each is unit tested (tests/test_verdict.py).
"""

from __future__ import annotations

import itertools
import json
import random
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Spread:
    """Median and range of repeated measurements (seconds)."""

    median: float
    low: float
    high: float
    n: int

    def render(self) -> str:
        return f"{self.median:.1f} ({self.low:.1f}-{self.high:.1f}, n={self.n})"


def spread(values: list[float]) -> Spread:
    if not values:
        raise ValueError("no measurements to summarise")
    return Spread(statistics.median(values), min(values), max(values), len(values))


def kill_instants(seed: int, count: int, window_s: float, min_gap_s: float) -> list[float]:
    """`count` instants in [0, window_s), sorted, at least `min_gap_s` apart, from `seed`.

    Drawn again until the gap holds, so the same seed always gives the same instants."""
    if count * min_gap_s > window_s:
        raise ValueError(f"{count} kills {min_gap_s} s apart do not fit in {window_s} s")
    rng = random.Random(seed)
    for _ in range(10_000):
        xs = sorted(rng.uniform(0, window_s) for _ in range(count))
        if all(b - a >= min_gap_s for a, b in itertools.pairwise(xs)):
            return [round(x, 2) for x in xs]
    raise ValueError(f"no {count} instants {min_gap_s} s apart found in {window_s} s")


def table_ids(raw_json: str) -> list[str]:
    """Tenant ids of a pool's tenant table, each key as often as the JSON text repeats it
    (json.loads alone would silently keep only the last of duplicated keys)."""
    ids: list[str] = []

    def hook(pairs: list[tuple[str, object]]) -> dict:
        # The entries' object is the one whose values each carry a profile.
        if pairs and all(isinstance(v, dict) and "profile" in v for _, v in pairs):
            ids.extend(k for k, _ in pairs)
        return dict(pairs)

    doc = json.loads(raw_json, object_pairs_hook=hook)
    if not isinstance(doc, dict) or not isinstance(doc.get("tenants"), dict):
        raise ValueError("not a tenant table: no 'tenants' object")
    return ids


@dataclass
class TenantVerdict:
    """Whether every tenant a run onboarded survived a fault: none lost, none twice, all served."""

    expected: int
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    not_serving: list[str] = field(default_factory=list)
    not_served: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    not_accepted: list[str] = field(default_factory=list)  # tried, never confirmed, absent

    @property
    def ok(self) -> bool:
        return not (self.lost or self.duplicated or self.not_serving or self.not_served)

    def summary(self) -> str:
        parts = [
            f"{name} {len(ids)} ({', '.join(sorted(ids)[:5])}{'…' if len(ids) > 5 else ''})"
            for name, ids in (
                ("lost", self.lost),
                ("duplicated", self.duplicated),
                ("not Serving", self.not_serving),
                ("not served", self.not_served),
            )
            if ids
        ]
        return "; ".join(parts) if parts else f"all {self.expected} present once, Serving, served"


def tenant_verdict(
    expected: set[str],
    resources: list[str],
    phases: dict[str, str],
    pool_tables: dict[str, list[str]],
    served: set[str],
    unconfirmed: frozenset[str] = frozenset(),
) -> TenantVerdict:
    """expected: ids the API accepted (201, or 409 after a retry); resources: Tenant objects'
    names as listed (a repeat is a duplicate); phases: id → status.phase; pool_tables: pool →
    ids of its tenant table (as table_ids gives them); served: ids a pool answered with 200;
    unconfirmed: ids the client gave up posting (the API never answered) — expected too when
    their object exists (a POST got through), else only reported as not accepted."""
    present = Counter(resources)
    expected = set(expected) | {i for i in unconfirmed if present[i]}
    v = TenantVerdict(expected=len(expected))
    in_tables = Counter(i for ids in pool_tables.values() for i in ids)
    v.lost = sorted(i for i in expected if present[i] == 0 or in_tables[i] == 0)
    v.duplicated = sorted(i for i in expected if present[i] > 1 or in_tables[i] > 1)
    v.not_serving = sorted(i for i in expected if present[i] and phases.get(i) != "Serving")
    v.not_served = sorted(i for i in expected if i not in served)
    v.unexpected = sorted(i for i in present if i not in expected and i not in unconfirmed)
    v.not_accepted = sorted(i for i in unconfirmed if not present[i])
    return v


@dataclass(frozen=True)
class LoadWindow:
    requests: int
    errors: int

    @property
    def error_rate(self) -> float:
        return self.errors / self.requests if self.requests else 0.0

    def render(self) -> str:
        if not self.requests:
            return "—"
        return f"{self.errors}/{self.requests} ({100 * self.error_rate:.2f} %)"


def load_window(samples: list[tuple[float, bool]], start: float, end: float) -> LoadWindow:
    """Requests of a steady load sent in [start, end] (send time, succeeded) and their errors."""
    inside = [ok for t, ok in samples if start <= t <= end]
    return LoadWindow(len(inside), sum(1 for ok in inside if not ok))


@dataclass
class FaultResult:
    name: str
    tenants: int
    verdict: TenantVerdict
    converge_s: float | None
    load: LoadWindow | None
    load_goal: bool  # whether the pools must keep serving (controller and API-server faults)
    detail: str = ""
    complete: bool = True  # the fault was injected as planned (e.g. every planned kill done)

    @property
    def passed(self) -> bool:
        load_ok = not self.load_goal or (
            self.load is not None and self.load.requests > 0 and self.load.errors == 0
        )
        return self.complete and self.verdict.ok and self.converge_s is not None and load_ok

    def notes(self) -> str:
        notes = [self.detail] if self.detail else []
        if self.verdict.not_accepted:
            n = len(self.verdict.not_accepted)
            notes.insert(0, f"{n} never accepted (no answer, or refused: see refusals)")
        return "; ".join(notes)

    def row(self) -> list[str]:
        v = self.verdict
        return [
            self.name,
            str(self.tenants),
            str(len(v.lost)),
            str(len(v.duplicated)),
            f"{v.expected - len(v.not_served)}/{v.expected}",
            "—" if self.converge_s is None else f"{self.converge_s:.1f}",
            self.load.render() if self.load else "—",
            "pass" if self.passed else "FAIL",
            self.notes(),
        ]


HEADER = [
    "fault",
    "tenants",
    "lost",
    "duplicated",
    "served again",
    "converged after (s)",
    "steady-load errors",
    "verdict",
    "notes",
]


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def fault_table(results: list[FaultResult]) -> str:
    return markdown_table(HEADER, [r.row() for r in results])


_SAMPLE = re.compile(r"^(?P<name>[a-zA-Z_:][\w:]*)\{(?P<labels>[^}]*)\}\s+(?P<value>\S+)")
_LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def histogram_buckets(text: str, metric: str, match: dict[str, set[str]]) -> dict[float, float]:
    """Cumulative bucket counts {le: count} of a Prometheus histogram in exposition `text`,
    summed over every series whose labels take one of `match`'s values (e.g. all writes to
    leases)."""
    buckets: dict[float, float] = {}
    for line in text.splitlines():
        m = _SAMPLE.match(line)
        if not m or m["name"] != metric + "_bucket":
            continue
        labels = dict(_LABEL.findall(m["labels"]))
        if any(labels.get(k) not in allowed for k, allowed in match.items()):
            continue
        le = float(labels["le"])
        buckets[le] = buckets.get(le, 0.0) + float(m["value"])
    return buckets


@dataclass(frozen=True)
class LatencyBound:
    """Requests counted between two scrapes of a histogram and the bucket bounds that hold the
    median, the 99th percentile and the slowest of them (a bound, not a value: the error is
    the bucket's width)."""

    count: int
    p50_le: float
    p99_le: float
    max_le: float

    def render(self) -> str:
        if not self.count:
            return "no requests"
        return (
            f"{self.count} requests: p50 ≤ {self.p50_le:g} s, p99 ≤ {self.p99_le:g} s,"
            f" slowest ≤ {self.max_le:g} s"
        )


def latency_bound(before: dict[float, float], after: dict[float, float]) -> LatencyBound:
    """What the requests made between two scrapes (cumulative buckets) looked like."""
    delta = sorted((le, after[le] - before.get(le, 0.0)) for le in after)
    if not delta:
        return LatencyBound(0, 0.0, 0.0, 0.0)
    total = delta[-1][1]

    def bound(q: float) -> float:
        return next(le for le, c in delta if c >= q * total)

    below_max = [le for le, c in delta if c >= total]
    return LatencyBound(int(total), bound(0.5), bound(0.99), below_max[0] if total else 0.0)


def first_acceptance(tries: list[tuple[float, int, float]], t0: float) -> dict | None:
    """Of POSTs `tries` (sent, HTTP code or 0, answered), the first sent after `t0` that was
    accepted, in seconds from `t0`: when it was sent, how long it took to answer, and what the
    tries sent before it got (code 0: no answer within the timeout, or the connection refused)."""
    tries = sorted(t for t in tries if t[0] >= t0)
    ok = next((t for t in tries if t[1] in (200, 201)), None)
    if ok is None:
        return None
    before = [t for t in tries if t[0] < ok[0]]
    codes: dict[str, int] = {}
    for _, code, _ in before:
        codes[str(code)] = codes.get(str(code), 0) + 1
    return {
        "sent_s": round(ok[0] - t0, 3),
        "answer_ms": round(1000 * (ok[2] - ok[0])),
        "tries_before": codes,
        "slowest_failed_ms": round(1000 * max((a - s for s, _, a in before), default=0.0)),
        "last_failed_sent_s": round(before[-1][0] - t0, 3) if before else None,
    }
