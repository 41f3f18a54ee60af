"""The load generators an experiment can be measured with (issue 13, item 2): the Gatling
simulation and the open-loop referee (gatling/openloop, built into build/openloop), which sends
the plan the Gatling module exports for the same properties (plan_export.py).

Pure: what the runner needs of a LinearRampCalibration (`Ramp`), the referee's command line,
and one probe step of the knee's bisection.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .definition import Simulation
from .knee import MAX_PROBES
from .templates import text

INSTRUMENTS = ("gatling", "openloop", "both")
RAMP = "LinearRampCalibration"


class InstrumentError(ValueError):
    """An instrument that cannot drive this definition."""


@dataclass(frozen=True)
class Ramp:
    """One class's ramp as LinearRampCalibration reads its properties (docs/gatling.md)."""

    slo_class: str
    rates: tuple[float, ...]
    requests_per_step: int
    warmup_s: float

    @property
    def step(self) -> float:
        """The ramp's rate increment (one step: the comparison's minimum tolerance)."""
        return self.rates[1] - self.rates[0] if len(self.rates) > 1 else self.rates[0]

    def durations(self, rates: tuple[float, ...] | None = None) -> list[float]:
        """Each step's planned seconds: requestsPerStep / rate."""
        return [self.requests_per_step / r for r in (rates or self.rates)]


def warmup_requests(ramp: Ramp, rate: float) -> int:
    """How many unrecorded requests either instrument sends before a ramp (or probe) starting
    at `rate` (the plan's ClassPlan.warmupRequests: rounded half up, at least 1)."""
    if ramp.warmup_s <= 0:
        return 0
    return max(1, math.floor(rate * ramp.warmup_s + 0.5))


def ramp_of(sim: Simulation) -> Ramp:
    """The ramp of a LinearRampCalibration, what the runner needs of it (its steps' rates and
    seconds for the knee, the hygiene windows and the wire); InstrumentError for any other
    simulation."""
    if sim.name != RAMP:
        raise InstrumentError(f"{sim.name} is not a {RAMP} ramp")
    p: Mapping[str, Any] = sim.properties
    start = float(p["startRate"])
    step = float(p.get("rateStep", start))
    if "maxRate" in p:
        count = math.floor((float(p["maxRate"]) - start) / step + 1e-9) + 1
    else:
        count = int(p.get("steps", 10))
    warmup = text(p.get("warmup", "true")) != "false"
    return Ramp(
        slo_class=text(p["sloClass"]),
        rates=tuple(start + i * step for i in range(count)),
        requests_per_step=int(p.get("requestsPerStep", 1600)),
        warmup_s=float(p.get("warmupSeconds", 5)) if warmup else 0.0,
    )


def openloop_plan_command(
    binary: Path,
    plan: Path,
    run_id: str,
    out_dir: Path,
    arrivals: str = "even",
    connections: str = "reuse",
) -> list[str]:
    """The open-loop generator sending an exported plan: one <class>.json per class (the plan
    carries the requests, a provider's endpoints included, as the simulation sends them)."""
    return [
        str(binary), "-plan", str(plan), "-out-dir", str(out_dir), "-run-id", run_id,
        "-arrivals", arrivals, "-connections", connections,
    ]  # fmt: skip


def gatling_connection_args(connections: str) -> list[str]:
    """Gatling's side of CONNECTIONS: `reuse` keeps its shared keep-alive pool (its default),
    `per-request` gives every virtual user (one request each) a connection of its own, so that
    kube-proxy draws the pod per request for Gatling as it does for the referee."""
    return ["-Disolato.shareConnections=false"] if connections == "per-request" else []


def probe_simulation(sim: Simulation, rate: float) -> Simulation:
    """The ramp reduced to one step at `rate` (a Gatling probe of the bisection)."""
    props = {k: v for k, v in sim.properties.items() if k not in ("maxRate", "steps", "rateStep")}
    return Simulation(
        sim.name, sim.service_urls, {**props, "startRate": rate, "steps": 1}, sim.request
    )


def merge_probe(run: dict[str, Any], probe: Mapping[str, Any]) -> dict[str, Any]:
    """The run with the probe's steps appended under new indexes (max + 1, ...); a probe cut
    short leaves the run as it was."""
    if probe.get("partial") or not probe.get("steps"):
        return run
    nxt = max(s["index"] for s in run["steps"]) + 1
    added = [{**s, "index": nxt + i} for i, s in enumerate(probe["steps"])]
    return {**run, "steps": [*run["steps"], *added]}


@dataclass(frozen=True)
class Options:
    """How a run measures: INSTRUMENT, HYGIENE (pin the CPUs), CONTAMINATED (refuse or post a
    contaminated run), REFINE (bisect near the knee), PROBES (the most bisection probes),
    ARRIVALS (the open-loop generator's: even or poisson), CONNECTIONS (both generators': reuse
    or per-request), OPENLOOP (its binary), WIRE (capture the arrivals at the pods)."""

    instrument: str = "gatling"
    pin: bool = True
    post_contaminated: bool = False
    refine: bool = True
    probes: int = MAX_PROBES
    arrivals: str = "even"
    connections: str = "reuse"
    openloop: Path = Path("build/openloop")
    wire: bool = True

    @property
    def instruments(self) -> tuple[str, ...]:
        """In order: the referee first, so that Gatling's run is the class's newest."""
        return ("openloop", "gatling") if self.instrument == "both" else (self.instrument,)

    @staticmethod
    def from_env(environ: Mapping[str, str], repo_root: Path) -> Options:
        def choice(name: str, choices: tuple[str, ...], default: str) -> str:
            value = environ.get(name) or default
            if value not in choices:
                raise InstrumentError(f"{name} must be {' or '.join(choices)}, not '{value}'")
            return value

        return Options(
            instrument=choice("INSTRUMENT", INSTRUMENTS, "gatling"),
            pin=choice("HYGIENE", ("on", "off"), "on") == "on",
            post_contaminated=choice("CONTAMINATED", ("refuse", "post"), "refuse") == "post",
            refine=choice("REFINE", ("1", "0"), "1") == "1",
            probes=int(
                choice("PROBES", tuple(str(n) for n in range(1, MAX_PROBES + 1)), str(MAX_PROBES))
            ),
            arrivals=choice("ARRIVALS", ("even", "poisson"), "even"),
            connections=choice("CONNECTIONS", ("reuse", "per-request"), "reuse"),
            openloop=Path(environ.get("OPENLOOP") or repo_root / "build" / "openloop"),
            wire=choice("WIRE", ("on", "off"), "on") == "on",
        )
