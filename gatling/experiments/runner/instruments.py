"""The load generators an experiment can be measured with (issue 13, item 2): the Gatling
simulation and the open-loop referee (gatling/openloop, built into build/openloop). The referee
drives an even LinearRampCalibration ramp with its flags, any other simulation with the plan
the Gatling module exports (plan_export.py).

Pure: what a LinearRampCalibration definition asks for (`Ramp`), and the command lines that
drive the same steps with either instrument, or one probe step of the knee's bisection.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .definition import Simulation
from .templates import text

INSTRUMENTS = ("gatling", "openloop", "both")
RAMP = "LinearRampCalibration"


class InstrumentError(ValueError):
    """An instrument that cannot drive this definition."""


@dataclass(frozen=True)
class Ramp:
    """One class's ramp as LinearRampCalibration reads its properties (docs/gatling.md)."""

    slo_class: str
    url_property: str
    tenants: tuple[str, ...]
    rates: tuple[float, ...]
    requests_per_step: int
    warmup_s: float
    label: str
    context: str
    body: str

    @property
    def step(self) -> float:
        """The ramp's rate increment (one step: the comparison's minimum tolerance)."""
        return self.rates[1] - self.rates[0] if len(self.rates) > 1 else self.rates[0]

    def durations(self, rates: tuple[float, ...] | None = None) -> list[float]:
        """Each step's planned seconds: requestsPerStep / rate."""
        return [self.requests_per_step / r for r in (rates or self.rates)]


def warmup_requests(instrument: str, ramp: Ramp, rate: float, planned: bool = False) -> int:
    """How many unrecorded requests an instrument sends before a ramp (or probe) starting at
    `rate`: Gatling rounds half up, at least 1 (ClassPlan.warmupRequests), the referee driven by
    flags truncates; driven by the exported plan (`planned`) it sends Gatling's count."""
    if ramp.warmup_s <= 0:
        return 0
    if instrument == "gatling" or planned:
        return max(1, math.floor(rate * ramp.warmup_s + 0.5))
    return int(rate * ramp.warmup_s)


def flag_ramp(sim: Simulation) -> bool:
    """Whether the referee drives `sim` with its ramp flags (openloop_command): a
    LinearRampCalibration whose tenants share each step evenly. Every other simulation, and a
    ramp with tenantShares, is driven by the plan Gatling's module exports (plan_export)."""
    return sim.name == RAMP and "tenantShares" not in sim.properties


def ramp_of(sim: Simulation) -> Ramp:
    """The ramp of a LinearRampCalibration (InstrumentError for any other simulation)."""
    if sim.name != RAMP:
        raise InstrumentError(f"the open-loop instrument drives {RAMP} ramps, not {sim.name}")
    p: Mapping[str, Any] = sim.properties
    start = float(p["startRate"])
    step = float(p.get("rateStep", start))
    if "maxRate" in p:
        count = math.floor((float(p["maxRate"]) - start) / step + 1e-9) + 1
    else:
        count = int(p.get("steps", 10))
    if "tenants" in p:
        tenants = tuple(t.strip() for t in text(p["tenants"]).split(",") if t.strip())
    else:
        tenants = tuple(f"t{i}" for i in range(1, int(p.get("tenantCount", 1)) + 1))
    warmup = text(p.get("warmup", "true")) != "false"
    ((url_property, _),) = sim.service_urls.items()
    return Ramp(
        slo_class=text(p["sloClass"]),
        url_property=url_property,
        tenants=tenants,
        rates=tuple(start + i * step for i in range(count)),
        requests_per_step=int(p.get("requestsPerStep", 1600)),
        warmup_s=float(p.get("warmupSeconds", 5)) if warmup else 0.0,
        label=text(p.get("label", "alone")),
        context=text(p.get("context", "")),
        body=text(p.get("body", "{}")),
    )


def openloop_command(
    binary: Path,
    ramp: Ramp,
    url: str,
    rates: tuple[float, ...],
    first_index: int,
    run_id: str,
    out: Path,
    arrivals: str = "even",
) -> list[str]:
    """The open-loop generator driving `rates` (the same requests per step, tenants and
    warm-up as the Gatling ramp; even or Poisson arrivals)."""
    return [
        str(binary), "-url", url, "-class", ramp.slo_class, "-tenants", ",".join(ramp.tenants),
        "-rates", ",".join(text(r) for r in rates), "-first-index", str(first_index),
        "-requests", str(ramp.requests_per_step), "-warmup", f"{ramp.warmup_s}s",
        "-label", ramp.label, "-context", ramp.context, "-body", ramp.body,
        "-run-id", run_id, "-out", str(out), "-arrivals", arrivals,
    ]  # fmt: skip


def openloop_plan_command(
    binary: Path, plan: Path, run_id: str, out_dir: Path, arrivals: str = "even"
) -> list[str]:
    """The open-loop generator sending an exported plan: one <class>.json per class."""
    return [
        str(binary), "-plan", str(plan), "-out-dir", str(out_dir), "-run-id", run_id,
        "-arrivals", arrivals,
    ]  # fmt: skip


def probe_simulation(sim: Simulation, rate: float) -> Simulation:
    """The ramp reduced to one step at `rate` (a Gatling probe of the bisection)."""
    props = {k: v for k, v in sim.properties.items() if k not in ("maxRate", "steps", "rateStep")}
    return Simulation(sim.name, sim.service_urls, {**props, "startRate": rate, "steps": 1})


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
    contaminated run), REFINE (bisect near the knee), ARRIVALS (the open-loop generator's:
    even or poisson), OPENLOOP (its binary), WIRE (capture the arrivals at the pods)."""

    instrument: str = "gatling"
    pin: bool = True
    post_contaminated: bool = False
    refine: bool = True
    arrivals: str = "even"
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
            arrivals=choice("ARRIVALS", ("even", "poisson"), "even"),
            openloop=Path(environ.get("OPENLOOP") or repo_root / "build" / "openloop"),
            wire=choice("WIRE", ("on", "off"), "on") == "on",
        )
