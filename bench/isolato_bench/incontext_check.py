"""An in-context cut-off held against two independent generators (`isolato-bench incontext-check`,
issue 34: a figure the planner uses is a result only when a second instrument agrees, in the
context it is used in).

The run (under `make run`): `make experiment` ramps a class through its Service from the host with
Gatling and the open-loop referee, unpinned (HYGIENE=off: the pods and the generators share the
node's CPUs, as tenants' pods do), and posts both runs; then POST …/calibrations measures the same
class in context, the referee as a Job beside a calibration replica. Directory layout: `host/`
(the experiment's results: `<class>.json`, `<class>.openloop.json`, their `.response.json`
answers) and `incontext.json` (the finished calibration as GET …/calibrations/{id} gives it).
Everything here is pure: files in, figures and Markdown out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runner.compare import cutoff_of


@dataclass(frozen=True)
class Figure:
    instrument: str
    where: str
    cutoff_rps: float | None  # None: not found (see held_to_rps)
    held_to_rps: float | None  # the SLO held at every step up to here (a lower bound)
    step_rps: float  # the figure's error: the gap to the next rate run above it (it failed)
    generator_cpu_pct: float | None  # the generator's own CPU, % of one CPU (highest step)
    achieved_of_offered: float | None  # achieved ÷ offered at the highest step that held

    @property
    def value(self) -> float | None:
        return self.cutoff_rps if self.cutoff_rps is not None else self.held_to_rps


def _step_width(rates: list[float], at: float | None) -> float:
    """A knee's error: from the last rate that held (`at`) to the next rate run above it, where
    it failed; below the lowest rate or when nothing failed, the last gap of the ramp."""
    rs = sorted(set(rates))
    if len(rs) < 2:
        return 0.0
    above = [r for r in rs if at is not None and r > at + 1e-9]
    return above[0] - at if above and at is not None else rs[-1] - rs[-2]


def host_figure(instrument: str, run: dict[str, Any], answer: dict[str, Any]) -> Figure:
    """One host generator's figure from its run and the controller's answer to it."""
    cutoff, held = cutoff_of(answer)
    steps = sorted(run.get("steps") or [], key=lambda s: s["offeredRps"])
    knee = cutoff if cutoff is not None else held
    below = [s for s in steps if knee is None or s["offeredRps"] <= knee + 1e-9]
    top = below[-1] if below else None
    hygiene = (run.get("hygiene") or {}).get("steps") or []
    cpus = [w["generatorCpuPct"] for w in hygiene if w.get("generatorCpuPct") is not None]
    return Figure(
        instrument=instrument,
        where="host, through the class Service, unpinned",
        cutoff_rps=cutoff,
        held_to_rps=held,
        step_rps=_step_width([s["offeredRps"] for s in steps], knee),
        generator_cpu_pct=max(cpus) if cpus else None,
        achieved_of_offered=(top["achievedRps"] / top["offeredRps"]) if top else None,
    )


def incontext_figure(cal: dict[str, Any]) -> Figure:
    """The in-context calibration's figure (phase Succeeded), its ramp's and fine pass's steps
    together; a cut-off at the ramp's top rate failed nowhere: a lower bound."""
    cutoff = cal.get("perPodCutoffRps")
    rates = [float(r) for r in (cal.get("rates") or []) + (cal.get("fineRates") or [])]
    top = cutoff is not None and bool(rates) and cutoff >= max(rates) - 1e-9
    return Figure(
        instrument="open-loop referee (Job)",
        where=f"in cluster, node {cal.get('node')}, calibration replica, unpinned",
        cutoff_rps=None if top else cutoff,
        held_to_rps=cutoff if top else None,
        step_rps=_step_width(rates, cutoff),
        generator_cpu_pct=cal.get("generatorCpuPct"),
        # the calibration reports the run's achieved rate over all its steps, not per step
        achieved_of_offered=None,
    )


def agrees(a: Figure, b: Figure) -> bool:
    """Whether two figures agree: their difference within the coarser of their resolutions (a
    knee is known only to within the step below it). A lower bound (a ramp that never failed)
    agrees with any figure not below it by more than that."""
    if a.value is None or b.value is None:
        return False
    tolerance = max(a.step_rps, b.step_rps) + 1e-9
    if a.cutoff_rps is None and b.cutoff_rps is None:
        return True  # two lower bounds contradict nothing
    if a.cutoff_rps is None:
        return b.value + tolerance >= a.value
    if b.cutoff_rps is None:
        return a.value + tolerance >= b.value
    return abs(a.value - b.value) <= tolerance


@dataclass(frozen=True)
class Check:
    slo_class: str
    reference: Figure  # the in-context figure, the one the planner uses
    others: list[Figure]
    calibration: dict[str, Any]


def load(out: Path, slo_class: str) -> Check:
    host = out / "host"
    others = []
    stems = (("Gatling", slo_class), ("open-loop referee", f"{slo_class}.openloop"))
    for instrument, stem in stems:
        run_file, answer_file = host / f"{stem}.json", host / f"{stem}.response.json"
        if run_file.exists() and answer_file.exists():
            run, answer = json.loads(run_file.read_text()), json.loads(answer_file.read_text())
            others.append(host_figure(instrument, run, answer))
    cal = json.loads((out / "incontext.json").read_text())
    return Check(slo_class, incontext_figure(cal), others, cal)


def _num(x: float | None, fmt: str = "{:.1f}") -> str:
    return "—" if x is None else fmt.format(x)


def row(f: Figure, ref: Figure) -> str:
    shown = (
        f"{f.cutoff_rps:g} (+{f.step_rps:g})"
        if f.cutoff_rps is not None
        else f"not reached (held to {_num(f.held_to_rps, '{:g}')}: a lower bound)"
    )
    ratio = f"{f.value / ref.value:.2f}" if f.value and ref.value else "—"
    verdict = "reference" if f is ref else ("agrees" if agrees(f, ref) else "disagrees")
    achieved = "—" if f.achieved_of_offered is None else f"{f.achieved_of_offered:.2f}"
    return (
        f"| {f.instrument} | {f.where} | {shown} | {ratio} | {verdict}"
        f" | {_num(f.generator_cpu_pct)} | {achieved} |"
    )


def report(c: Check, host_line: str) -> str:
    cal, ref = c.calibration, c.reference
    neighbours = ", ".join(f"{k} ({v})" for k, v in (cal.get("neighbourPods") or {}).items())
    agreeing = sum(agrees(f, ref) for f in c.others)
    return "\n".join(
        [
            "## In-context cut-off against two independent generators: class"
            f" `{c.slo_class}` (`isolato-bench incontext-check`)",
            "",
            f"{host_line}. Class `{c.slo_class}`: `make experiment` (Gatling, then the open-loop"
            " referee) from the host through the class Service, unpinned (`HYGIENE=off`); then"
            " the in-context calibration (`POST …/calibrations`: the referee as a Job beside a"
            f" calibration replica): context `{cal.get('context')}`, node busy"
            f" {_num(cal.get('nodeBusyPct'))} %, neighbours {neighbours or 'none'},"
            f" {cal.get('requestsPerStep')} requests a step at {cal.get('rates')} req/s."
            " A figure's error is the gap from it (the last rate that held) to the next rate run"
            " above it (which failed); two figures agree when they differ by at most the larger"
            " error, and a lower bound agrees with a figure not below it by more than that."
            " Generator CPU: % of one CPU, its highest step;"
            " achieved ÷ offered at the highest step that held (the calibration reports its run's"
            f" mean achieved rate instead: {_num(cal.get('achievedRps'))} req/s).",
            "",
            "| instrument | where | cut-off req/s | ÷ in-context | verdict | generator CPU % |"
            " achieved ÷ offered |",
            "|---|---|---|---|---|---|---|",
            row(ref, ref),
            *[row(f, ref) for f in c.others],
            "",
            f"{agreeing} of {len(c.others)} independent generators agree with the in-context"
            " figure.",
        ]
    )
