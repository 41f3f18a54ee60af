"""The instruments a ramp is measured with: what they are asked to drive."""

from pathlib import Path

import pytest
import yaml
from runner.definition import (
    DefinitionError,
    Simulation,
    catalogue,
    first_request,
    request_properties,
)
from runner.instruments import (
    InstrumentError,
    Options,
    gatling_connection_args,
    merge_probe,
    openloop_plan_command,
    probe_simulation,
    ramp_of,
)

DEFS = catalogue()


def test_the_gold_alone_ramp_as_gatling_reads_it():
    r = ramp_of(DEFS["gold-alone"].resolve({}).simulation)
    assert r.slo_class == "gold"
    assert r.rates == tuple(float(x) for x in range(15, 181, 15))  # startRate..maxRate
    assert r.step == 15
    assert (r.requests_per_step, r.warmup_s) == (300, 20.0)
    assert r.durations()[0] == 20.0


def test_the_smoke_ramp_with_steps_and_warmup():
    r = ramp_of(DEFS["smoke"].resolve({}).simulation)
    assert r.rates == (5.0, 20.0, 35.0, 50.0)
    assert r.warmup_s == 2.0


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
    assert (r.rates, r.warmup_s, r.requests_per_step) == ((10, 20), 0, 1600)


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
    assert o.connections == "reuse"
    assert o.probes == 6 and Options.from_env({"PROBES": "1"}, Path("/r")).probes == 1
    with pytest.raises(InstrumentError, match="PROBES must be 1 or 2 or 3 or 4 or 5 or 6, not '0'"):
        Options.from_env({"PROBES": "0"}, Path("/r"))
    env = {"INSTRUMENT": "both", "HYGIENE": "off", "REFINE": "0", "ARRIVALS": "poisson"}
    both = Options.from_env({**env, "WIRE": "off", "CONNECTIONS": "per-request"}, Path("/r"))
    assert both.arrivals == "poisson" and not both.wire and both.connections == "per-request"
    assert both.instruments == ("openloop", "gatling")  # the referee first
    assert (both.pin, both.refine) == (False, False)
    with pytest.raises(InstrumentError, match="CONNECTIONS must be reuse or per-request"):
        Options.from_env({"CONNECTIONS": "pool"}, Path("/r"))
    with pytest.raises(InstrumentError, match="INSTRUMENT must be gatling or openloop or both"):
        Options.from_env({"INSTRUMENT": "wrk"}, Path("/r"))


def test_the_referee_sends_the_exported_plan():
    cmd = openloop_plan_command(Path("/b/openloop"), Path("p.json"), "run1", Path("out"))
    assert cmd == [
        "/b/openloop", "-plan", "p.json", "-out-dir", "out", "-run-id", "run1",
        "-arrivals", "even", "-connections", "reuse",
    ]  # fmt: skip


def test_both_instruments_send_a_providers_request_mix():
    sim = DEFS["httpbin-alone"].resolve({}).simulation  # the catalogue's provider example
    args = sim.args({"httpbin": "http://10.96.0.9:8080"})
    # Gatling reads these; the referee gets them from the plan the same properties export
    assert "-Disolato.requests=GET:/get*3,POST:/post*1" in args
    assert "-Disolato.tenantHeader=X-Tenant" in args
    # the readiness probe asks what the instruments will: the mix's first endpoint
    assert first_request(sim.request, "httpbin-t1") == ("GET", "/get", {"X-Tenant": "httpbin-t1"})
    assert first_request(None, "t1") == ("POST", "/v1/tenants/t1/requests", {})
    assert "-method" not in openloop_plan_command(Path("/b"), Path("p.json"), "r", Path("o"))
    probe = probe_simulation(sim, 50)  # the knee's probes send it too
    assert "-Disolato.requests=GET:/get*3,POST:/post*1" in probe.args({"httpbin": "http://x"})


def test_the_ramped_class_carries_the_mix_for_its_in_context_calibrations():
    exp = DEFS["httpbin-alone"].resolve({})
    (httpbin,) = exp.classes
    assert httpbin.body()["spec"]["requestMix"] == [
        {"method": "GET", "path": "/get", "weight": 3},
        {"method": "POST", "path": "/post", "weight": 1},
    ]
    # a saas-bench class without a simulation.request replays saas-bench's route: no mix
    assert "requestMix" not in DEFS["gold-alone"].resolve({}).classes[0].body()["spec"]


def test_a_tenant_header_the_class_does_not_read_is_refused(tmp_path):
    body = yaml.safe_load((DEFS["httpbin-alone"].file).read_text())
    body["classes"][0]["tenantKey"] = "header:X-Other"
    f = tmp_path / "defs" / "h.yaml"
    f.parent.mkdir()
    f.write_text(yaml.safe_dump(body))
    with pytest.raises(DefinitionError, match="'X-Tenant' is not where class httpbin finds"):
        catalogue(f.parent)["h"].resolve({})


def test_a_single_endpoint_is_a_mix_of_one():
    one = {"method": "get", "path": "/t/{tenant}/x"}
    assert request_properties(one) == {"requests": "GET:/t/{tenant}/x*1"}
    assert request_properties(None) == {}


def test_connections_per_request_give_gatling_a_connection_per_virtual_user():
    assert gatling_connection_args("per-request") == ["-Disolato.shareConnections=false"]
    assert gatling_connection_args("reuse") == []  # its shared keep-alive pool
