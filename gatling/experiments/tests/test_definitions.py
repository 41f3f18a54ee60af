"""The definitions under defs/ and the loader's validation."""

import json
import re
from pathlib import Path

import pytest
from runner.definition import (
    Calibrate,
    DefinitionError,
    DeleteCreated,
    ParameterError,
    SloClass,
    Tenant,
    Verdict,
    catalogue,
    load,
)

# Each bash definition (before the runner was Python), sourced with these parameters: its class
# and tenant bodies, simulation, -D properties, URL properties, results directory. Deliberate
# changes since: bronze-alone ramps 3..33 req/s with 150 requests per step (was 4..31 x 100);
# every class of a calibrating definition has admission off (test_calibrations_turn_admission_off);
# gold-alone ramps to 180, bronze-alone to 39, and they and accuracy warm up for 20 s; colocated
# ramps 14 steps of 20 s (STEP_SECONDS), gold 15..210 and bronze 4..56 (committed 55 and 14 per
# tenant, gold's declared cut-off 240 so that 4 x 55 is admitted); finding3 ramps
# 3..54 (18 steps, committed 60).
BASH_ERA = json.loads((Path(__file__).parent / "bash-definitions.json").read_text())
DEFS = catalogue()


def split(key):
    m = re.fullmatch(r"([^\[]+)(?:\[(.*)\])?", key)
    env = dict(kv.split("=") for kv in m.group(2).split(",")) if m.group(2) else {}
    return m.group(1), env


def test_every_definition_loads_with_a_description():
    # pod-size (tests/test_pod_size.py), httpbin-alone (a provider's service) and incontext-check
    # (isolato-bench incontext-check) came after the bash runner
    later = {"pod-size", "httpbin-alone", "incontext-check"}
    assert set(DEFS) == {split(k)[0] for k in BASH_ERA} | later
    assert all(d.description.strip() for d in DEFS.values())


@pytest.mark.parametrize("key", sorted(BASH_ERA))
def test_definitions_keep_the_bash_definitions_semantics(key):
    name, env = split(key)
    old = BASH_ERA[key]
    e = DEFS[name].resolve(env)
    assert [c.body() for c in e.classes] == old["classes"]
    assert [t.body() for t in e.tenants] == old["tenants"]
    assert e.simulation.name == old["simulation"]
    assert e.calibrate == old["calibrate"]
    assert str(e.results) == old["resultsDir"]
    assert [f"{p}={c}" for p, c in e.simulation.service_urls.items()] == old["urlProps"]
    urls = {c.name: f"http://{c.name}" for c in e.classes}
    args = e.simulation.args(urls)
    n = len(e.simulation.service_urls)
    assert args[n:] == old["simArgs"]
    assert args[:n] == [f"-Disolato.{p}=http://{c}" for p, c in e.simulation.service_urls.items()]
    had = set(old["hooks"])
    assert ("classes_created" in had) == bool(e.steps("afterClasses"))
    assert ("finish" in had) == bool(e.steps("finish"))
    assert not e.steps("afterTenants")


def test_the_steps_of_verify_and_finding3_plan():
    v = DEFS["verify"].resolve({})
    assert v.steps("afterClasses") == (
        Calibrate("verify", Path("model-accuracy/replicas-1/acc1.json")),
        Calibrate("verify", Path("model-accuracy/replicas-2/acc2.json")),
    )
    finish = v.steps("finish")
    assert isinstance(finish[0], Verdict) and finish[0].slo_class == "verify"
    assert finish[1] == DeleteCreated()
    f3 = DEFS["finding3-plan"].resolve({})
    assert f3.steps("afterClasses") == (
        Calibrate("f3bronze", Path("finding3/mix-1-3/f3bronze.json")),
    )
    assert {"onePodPerTenant": 3} in f3.steps("finish")[0].fields
    # its autoscaler holds each pod at the cut-off the planner divides by: no pod beyond the plan
    assert f3.classes[1].body()["spec"]["pivotPercent"] == 100
    assert "pivotPercent" not in f3.classes[0].body()["spec"]


def test_the_runs_that_steps_post_are_stored():
    root = Path(__file__).resolve().parents[3] / "results"
    for d in DEFS.values():
        for hook in ("afterClasses", "afterTenants", "finish"):
            for s in d.resolve({}).steps(hook):
                if isinstance(s, Calibrate):
                    assert (root / s.run).is_file(), f"{d.name}: {s.run}"


@pytest.mark.parametrize(
    ("name", "env", "message"),
    [
        ("accuracy", {"REPLICAS": "0"}, "REPLICAS must be an integer >= 1"),
        ("accuracy", {"REPLICAS": "two"}, "REPLICAS must be an integer"),
        (
            "aggressive",
            {"ADMISSION": "strict"},
            "ADMISSION must be enforce or off (the class's spec.admission), not 'strict'",
        ),
        ("colocated", {"BRONZE_PROFILE": "gpu"}, "BRONZE_PROFILE must be cpu or memory or io"),
        ("finding3", {"MIX": "4"}, "MIX must be gold:bronze pods, 1-9 each, like 3:1, not '4'"),
        ("verify", {"VERIFY_RUN": "../x"}, "VERIFY_RUN must be"),
    ],
)
def test_a_bad_parameter_value_names_the_variable(name, env, message):
    with pytest.raises(ParameterError, match=re.escape(message)):
        DEFS[name].resolve(env)


def test_class_and_tenant_bodies():
    c = SloClass("g", "400m", "256Mi", 1000, 1, 2, 90, "off")
    assert c.body() == {
        "name": "g",
        "spec": {
            "latency": {"percentile": 95, "targetMs": 50},
            "resources": {"cpu": "400m", "memory": "256Mi"},
            "priority": 1000,
            "minReplicas": 1,
            "maxReplicas": 2,
            "perPodCutoffRps": 90,
            "admission": "off",
        },
    }
    assert "priority" not in SloClass("a", "1", "1Mi", None, 1, 1, 1).body()["spec"]
    t = Tenant("g-t1", "g", 12.5, {"cpu": 0, "memory": 4000, "io": 0})
    assert t.body() == {
        "tenantId": "g-t1",
        "sloClass": "g",
        "committedRps": 12.5,
        "profile": {"cpu": 0, "memory": 4000, "io": 0},
    }


MINIMAL = """
description: d
classes:
  - {name: c, cpu: 100m, memory: 64Mi, priority: 1, minReplicas: 1, maxReplicas: 1,
     perPodCutoffRps: 10, admission: "off"}
tenants:
  - {class: c, count: 2, committedRps: 5, profile: 3}
simulation:
  name: LinearRampCalibration
  serviceUrls: {baseUrl: c}
  properties: {sloClass: c, startRate: 1}
"""


def write(tmp_path, text, name="x"):
    f = tmp_path / f"{name}.yaml"
    f.write_text(text)
    return f


def test_a_minimal_definition_and_its_defaults(tmp_path):
    e = load(write(tmp_path, MINIMAL)).resolve({})
    assert e.calibrate and str(e.results) == "x"
    assert [t.tenant_id for t in e.tenants] == ["c-t1", "c-t2"]
    assert e.tenants[0].profile == {"cpu": 3, "memory": 0, "io": 0}


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (("priority: 1,", "priority: 1, colour: red,"), r"classes\[0\]: unknown field\(s\) colour"),
        (("priority: 1,", ""), r"classes\[0\]\.priority: is required"),
        (("cpu: 100m", "cpu: [1]"), r"classes\[0\]\.cpu: must be"),
        (("maxReplicas: 1", "maxReplicas: 0"), r"classes\[0\]\.maxReplicas: need 1 <= minReplicas"),
        (("name: c,", "name: C_1,"), r"classes\[0\]\.name: 'C_1' is not a DNS label"),
        (("{class: c,", "{class: d,"), r"tenants\[0\]\.class: 'd' is not one of"),
        (("count: 2", "count: 0"), r"tenants\[0\]\.count: must be >= 1"),
        (("committedRps: 5", "committedRps: true"), r"tenants\[0\]\.committedRps: must be"),
        (("name: Linear", "name: Nonlinear"), r"simulation\.name: 'NonlinearRampCalibration'"),
        (("baseUrl: c", "baseUrl: d"), r"simulation\.serviceUrls\.baseUrl: 'd' is not one"),
        (("startRate: 1", "outputDir: /tmp"), r"simulation\.properties\.outputDir: is not a prop"),
        (("startRate: 1", "startRate: {a: 1}"), r"simulation\.properties\.startRate: must be a"),
        (("sloClass: c,", "sloClass: '{R}',"), r"simulation: unknown name 'R'"),
        (("description: d", "descripton: d"), r"description: is required"),
        (
            ("properties:", "request: {mix: [{method: GET, path: get}]}\n  properties:"),
            r"simulation\.request\.mix\[0\]\.path: must start with /",
        ),
        (
            ("properties:", "request: {mix: [{path: /a, weight: 0}]}\n  properties:"),
            r"simulation\.request\.mix\[0\]\.weight: must be >= 1",
        ),
        (
            ("properties:", "request: {path: /a, mix: [{path: /b}]}\n  properties:"),
            r"simulation\.request\.mix: is a non-empty list",
        ),
        (
            ("properties:", "request: {path: /a, tenantHeader: X T}\n  properties:"),
            r"simulation\.request\.tenantHeader: is not a header name",
        ),
        (("startRate: 1", "requests: GET:/a"), r"simulation\.properties\.requests: is not a prop"),
    ],
)
def test_a_mistake_names_the_file_and_the_field(tmp_path, change, where):
    text = MINIMAL.replace(*change)
    assert text != MINIMAL
    with pytest.raises(DefinitionError, match=r"x\.yaml: " + where):
        load(write(tmp_path, text))


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ("finish: [explode]", r"finish\[0\]: a step is"),
        ("finish: [{explode: {class: c}}]", r"finish\[0\]: unknown step 'explode'"),
        ("afterClasses: [{calibrate: {class: c}}]", r"afterClasses\[0\]\.calibrate\.run: is req"),
        (
            "afterClasses: [{calibrate: {class: c, run: ../x.json}}]",
            r"afterClasses\[0\]\.calibrate\.run: must be a relative",
        ),
        (
            "finish: [{verdict: {class: c, fields: [p95Ms]}}]",
            r"finish\[0\]\.verdict\.fields: must include violations",
        ),
        (
            "finish: [{verdict: {class: c, fields: [speed, violations]}}]",
            r"finish\[0\]\.verdict\.fields\[0\]: 'speed'",
        ),
        ("results: /abs", r"results: must be a relative path"),
        ("calibrate: maybe", r"calibrate: must be true or false"),
        ("parameters: {N: {env: lower}}", r"parameters\.N\.env: must be an environment"),
        (
            "parameters: {P: {env: P, choices: [a, b], default: a}}\n"
            "lookups: {w: {by: P, cases: {a: 1}}}",
            r"lookups\.w\.cases: no case for b",
        ),
        ("parameters: {N: {env: N, default: 0, min: 1}}", r"parameters: default: N must be"),
    ],
)
def test_steps_and_parameters_are_checked_on_load(tmp_path, extra, where):
    with pytest.raises(DefinitionError, match=r"x\.yaml: " + where):
        load(write(tmp_path, MINIMAL + extra + "\n"))


def test_tenants_beyond_a_classs_declared_capacity_are_refused_on_load(tmp_path):
    # 2 x 5 = 10 fits maxReplicas 1 x perPodCutoffRps 10; 2 x 6 is what the API answers 422 to
    assert load(write(tmp_path, MINIMAL)).resolve({}).tenants
    with pytest.raises(DefinitionError, match=r"x\.yaml: tenants: class c's tenants commit 12 "):
        load(write(tmp_path, MINIMAL.replace("committedRps: 5", "committedRps: 6")))


def test_invalid_yaml_names_the_file(tmp_path):
    with pytest.raises(DefinitionError, match=r"x\.yaml: is not valid YAML"):
        load(write(tmp_path, "description: a: b\n"))


@pytest.mark.parametrize("admission", ["", ', admission: "enforce"'])
def test_a_calibration_with_admission_is_refused(tmp_path, admission):
    text = MINIMAL.replace(', admission: "off"', admission)
    with pytest.raises(DefinitionError, match=r"x\.yaml: classes: .*needs admission: off.*c would"):
        load(write(tmp_path, text))
    assert not load(write(tmp_path, text + "calibrate: false\n")).resolve({}).calibrate


def test_a_class_may_set_its_own_target_and_the_default_is_the_shared_one(tmp_path):
    default = load(write(tmp_path, MINIMAL)).resolve({}).classes[0].body()["spec"]["latency"]
    assert default == {"percentile": 95, "targetMs": 50}
    own = MINIMAL.replace('admission: "off"}', 'admission: "off", targetMs: 20}')
    assert load(write(tmp_path, own)).resolve({}).classes[0].body()["spec"]["latency"] == {
        "percentile": 95,
        "targetMs": 20,
    }
    for bad in ("0", "-5", "10001", "fast"):
        text = MINIMAL.replace('admission: "off"}', f'admission: "off", targetMs: {bad}}}')
        with pytest.raises(DefinitionError, match=r"x\.yaml: classes\[0\]\.targetMs: must be"):
            load(write(tmp_path, text))


def test_a_providers_class_carries_its_workload_and_tenant_key():
    body = DEFS["httpbin-alone"].resolve({}).classes[0].body()
    assert body["spec"]["tenantKey"] == "header:X-Tenant"
    assert body["spec"]["workload"]["containers"][0]["image"] == "localhost/isolato/go-httpbin:dev"
    assert "image" not in body["spec"]


def test_calibrations_turn_admission_off():
    for name, d in DEFS.items():
        e = d.resolve({})
        if e.calibrate:
            assert {c.admission for c in e.classes} == {"off"}, name
