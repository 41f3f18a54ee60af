"""The instruments a ramp is measured with: what they are asked to drive."""

from pathlib import Path

import pytest
from runner.definition import Simulation, catalogue
from runner.instruments import (
    InstrumentError,
    Options,
    flag_ramp,
    merge_probe,
    openloop_command,
    openloop_plan_command,
    probe_simulation,
    ramp_of,
    warmup_requests,
)

DEFS = catalogue()


def test_the_gold_alone_ramp_as_gatling_reads_it():
    r = ramp_of(DEFS["gold-alone"].resolve({}).simulation)
    assert r.slo_class == "gold"
    assert r.tenants == ("gold-t1", "gold-t2", "gold-t3", "gold-t4")
    assert r.rates == tuple(float(x) for x in range(15, 181, 15))  # startRate..maxRate
    assert r.step == 15
    assert (r.requests_per_step, r.warmup_s, r.label) == (300, 20.0, "alone")
    assert r.durations()[0] == 20.0


def test_the_smoke_ramp_with_steps_and_warmup():
    r = ramp_of(DEFS["smoke"].resolve({}).simulation)
    assert r.rates == (5.0, 20.0, 35.0, 50.0)
    assert r.warmup_s == 2.0
    assert r.context == "podCpu=200m,podMemory=128Mi,replicas=1"


def test_other_simulations_are_not_ramps():
    with pytest.raises(InstrumentError, match="LinearRampCalibration"):
        ramp_of(DEFS["colocated"].resolve({}).simulation)


def test_tenant_count_and_no_warmup():
    sim = Simulation(
        "LinearRampCalibration",
        {"baseUrl": "g"},
        {"sloClass": "g", "tenantCount": 2, "startRate": 10, "steps": 2, "warmup": "false"},
    )
    r = ramp_of(sim)
    assert (r.tenants, r.rates, r.warmup_s, r.requests_per_step) == (
        ("t1", "t2"),
        (10, 20),
        0,
        1600,
    )


def test_the_openloop_command_drives_the_same_steps():
    r = ramp_of(DEFS["gold-alone"].resolve({}).simulation)
    cmd = openloop_command(
        Path("/b/openloop"), r, "http://svc", (97.5,), 10, "run1", Path("o.json")
    )
    args = dict(zip(cmd[1::2], cmd[2::2], strict=True))
    assert cmd[0] == "/b/openloop"
    assert args["-rates"] == "97.5" and args["-first-index"] == "10"
    assert args["-tenants"] == "gold-t1,gold-t2,gold-t3,gold-t4"
    assert args["-requests"] == "300" and args["-warmup"] == "20.0s"
    assert args["-context"] == "podCpu=400m,podMemory=256Mi,replicas=1"
    assert args["-arrivals"] == "even"


def test_a_gatling_probe_is_the_ramp_reduced_to_one_step():
    sim = DEFS["gold-alone"].resolve({}).simulation
    probe = probe_simulation(sim, 97.5)
    assert ramp_of(probe).rates == (97.5,)
    assert "-Disolato.maxRate=150" not in probe.args({"gold": "http://svc"})


def test_merge_probe_appends_under_new_indexes():
    run = {
        "partial": False,
        "steps": [{"index": 0, "offeredRps": 15}, {"index": 3, "offeredRps": 30}],
    }
    merged = merge_probe(run, {"partial": False, "steps": [{"index": 0, "offeredRps": 22.5}]})
    assert [(s["index"], s["offeredRps"]) for s in merged["steps"]][-1] == (4, 22.5)
    assert merge_probe(run, {"partial": True, "steps": [{"index": 0}]}) is run


def test_options_from_the_environment():
    o = Options.from_env({}, Path("/repo"))
    assert (o.instruments, o.pin, o.post_contaminated, o.refine) == (
        ("gatling",),
        True,
        False,
        True,
    )
    assert o.openloop == Path("/repo/build/openloop")
    assert o.wire
    env = {"INSTRUMENT": "both", "HYGIENE": "off", "REFINE": "0", "ARRIVALS": "poisson"}
    both = Options.from_env({**env, "WIRE": "off"}, Path("/r"))
    assert both.arrivals == "poisson" and not both.wire
    assert both.instruments == ("openloop", "gatling")  # the referee first
    assert (both.pin, both.refine) == (False, False)
    with pytest.raises(InstrumentError, match="INSTRUMENT must be gatling or openloop or both"):
        Options.from_env({"INSTRUMENT": "wrk"}, Path("/r"))


def test_the_referee_drives_even_ramps_by_flags_and_everything_else_by_the_exported_plan():
    assert flag_ramp(DEFS["gold-alone"].resolve({}).simulation)
    for name in ("verify", "aggressive", "colocated", "finding3"):  # verify: tenantShares
        assert not flag_ramp(DEFS[name].resolve({}).simulation), name


def test_the_plan_command_and_a_planned_warmup_counts_as_gatlings():
    cmd = openloop_plan_command(Path("/b/openloop"), Path("p.json"), "run1", Path("out"))
    assert cmd == [
        "/b/openloop", "-plan", "p.json", "-out-dir", "out", "-run-id", "run1", "-arrivals", "even"
    ]  # fmt: skip
    r = ramp_of(DEFS["verify"].resolve({}).simulation)
    assert warmup_requests("openloop", r, 90.0 + 1 / 10, planned=True) == warmup_requests(
        "gatling", r, 90.1
    )
