"""The SLO engine's JMH benchmarks (`isolato-bench slo-engine`) as a docs/benchmarks-log.md section:
each goal beside a reference measured in the same run. Goals (issue 5): planning 10,000 tenants
across 10 classes ≤ 50 ms; a fit on 50 steps ≤ 20 ms, both as mean + the 99.9 % error.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

# (benchmark, label, goal in ms or None, the reference it is compared with)
ROWS = [
    (
        "plan10kTenantsUsl",
        "plan 10,000 tenants / 10 classes, USL planner",
        50.0,
        "plan10kTenantsLinearReference",
    ),
    ("plan10kTenantsLinearReference", "  reference: linear baseline, same requests", None, None),
    (
        "fit50StepsUsl",
        "fit on 50 steps (1 replica count, \u03c3 assumed)",
        20.0,
        "fit50StepsLinearLeastSquaresReference",
    ),
    (
        "fit50StepsUslWithSigma",
        "fit on 50 steps (2 replica counts, \u03c3 fitted)",
        20.0,
        "fit50StepsLinearLeastSquaresReference",
    ),
    (
        "fit50StepsLinearLeastSquaresReference",
        "  reference: linear least squares (QR), same steps",
        None,
        None,
    ),
    ("ingest50StepRun", "ingest a 50-step run (validate, detect, fit)", None, None),
]


def timings(results: dict, name: str) -> tuple[float, float, float, float, float, int]:
    """mean, error, median, min, max (ms) and iterations of one benchmark (JMH reports µs)."""
    m = results[name]["primaryMetric"]
    raw = sorted(v for fork in m["rawData"] for v in fork)
    median = (raw[(len(raw) - 1) // 2] + raw[len(raw) // 2]) / 2
    return (
        m["score"] / 1000,
        m["scoreError"] / 1000,
        median / 1000,
        raw[0] / 1000,
        raw[-1] / 1000,
        len(raw),
    )


def report(jmh: Path, host: str, nproc: int, cpu: str, jvm: str, load: str) -> tuple[str, bool]:
    """The section and whether every goal was met."""
    results = {r["benchmark"].rsplit(".", 1)[1]: r for r in json.loads(jmh.read_text())}
    ok = True
    lines = [
        f"### {datetime.now(UTC):%Y-%m-%d %H:%M} UTC — {host}, {nproc} CPUs, {cpu}, {jvm},"
        f" load average after the run {load}",
        "",
        "| measurement | mean ms | ± (99.9%) | median ms | min\u2013max ms | iterations"
        " | goal (mean + error) | mean ratio to reference |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |",
    ]
    for name, label, goal, ref in ROWS:
        mean, err, median, lo, hi, n = timings(results, name)
        verdict = ""
        if goal is not None:
            met = mean + err <= goal
            ok &= met
            verdict = f"≤ {goal:g} ms: {'met' if met else 'MISSED'}"
        ratio = f"{mean / timings(results, ref)[0]:.1f}×" if ref else ""
        lines.append(
            f"| {label} | {mean:.3f} | {err:.3f} | {median:.3f} | {lo:.3f}\u2013{hi:.3f} | {n} |"
            f" {verdict} | {ratio} |"
        )
    if float(load.split()[0]) > nproc:
        lines += [
            "",
            f"Contended run: load average {load.split()[0]} on {nproc} CPUs (other builds and"
            " tests were running), so absolute times measure the scheduler as much as the code;"
            " the ratios to the reference, measured under the same load, are the comparable"
            " figures. Re-run on an idle machine to check the goals.",
        ]
    return "\n".join(lines) + "\n", ok
