"""The measuring path of a run (Run.measure) with the real open-loop generator against a real
HTTP service with a known knee on loopback: the ramp, the knee's bisection, the hygiene block.
Only the cluster is absent (no pods to follow), and HYGIENE=off (no cgroups are touched)."""

import json
import shutil
import subprocess
import threading
import time
from collections import deque
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from runner.definition import Simulation, catalogue
from runner.instruments import Options
from runner.run import Run, aligned_durations

KNEE_RPS = 50  # the service answers at once up to 50 arrivals a second, in 200 ms beyond
WINDOW_S = 0.5


@pytest.fixture(scope="module")
def openloop(tmp_path_factory):
    if not shutil.which("go"):
        pytest.skip("go is not installed")
    binary = tmp_path_factory.mktemp("bin") / "openloop"
    source = Path(__file__).resolve().parents[2] / "openloop"
    subprocess.run(["go", "build", "-o", str(binary), "."], cwd=source, check=True)
    return binary


@pytest.fixture
def service():
    lock, arrivals = threading.Lock(), deque()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            now = time.monotonic()
            with lock:  # arrivals of the last half second: the offered rate, free of CPU noise
                arrivals.append(now)
                while arrivals[0] < now - WINDOW_S:
                    arrivals.popleft()
                overloaded = len(arrivals) > KNEE_RPS * WINDOW_S
            if overloaded:
                time.sleep(0.2)
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


class NoPods:
    def items(self, kind, selector):
        return []


def test_an_openloop_ramp_is_bisected_near_its_knee_and_marked(openloop, service, tmp_path):
    e = catalogue()["smoke"].resolve({})
    props = {
        **e.simulation.properties,
        "startRate": 20,
        "rateStep": 20,
        "steps": 3,
        "requestsPerStep": 60,
        "warmupSeconds": 1,  # fills the service's window at each probe's rate
    }
    e = replace(e, simulation=Simulation(e.simulation.name, e.simulation.service_urls, props))
    options = Options(instrument="openloop", pin=False, openloop=openloop)
    r = Run(e, None, NoPods(), Path("."), tmp_path / "results", tmp_path, "t1", options=options)
    assert r.measure({"e2egold": service}) == ["e2egold"]
    run = json.loads((tmp_path / "results" / "e2egold.openloop.json").read_text())
    rates = [s["offeredRps"] for s in run["steps"]]
    assert rates[:3] == [20, 40, 60]  # the coarse ramp; 60 is beyond the knee
    knee = run["hygiene"]["knee"]
    assert knee["probes"] == rates[3:] and knee["probes"][0] == 50
    assert knee["resolutionPct"] <= 5.0, knee  # the bisection reached the goal
    low, high = knee["bracket"]
    assert 40 <= low < high <= 60, knee  # within the coarse bracket (the service's window jitters)
    h = run["hygiene"]
    assert h["instrument"] == "openloop" and h["status"] == "contaminated"
    assert h["reasons"][0] == "the generator shares CPUs with the pods (HYGIENE=off)"
    assert [s["index"] for s in h["steps"]] == [s["index"] for s in run["steps"]]
    assert h["steps"][0]["p95Ci"]["count"] == 60
    assert "generatorCpuPct" in h["steps"][0]  # a 3 s step: sampled


class ExportedPlan:
    """The Gatling module's export of the run's AggressiveTenant plan, as PlanExport writes it
    (the real export is checked in gatling/test/simulations-local.sh)."""

    def __init__(self, url, cls):
        self.url, self.cls, self.calls = url, cls, []

    def export(self, simulation, properties, out, prefix=()):
        self.calls.append((simulation, list(properties)))
        loads = [(f"{self.cls}-t1", 10, 20), (f"{self.cls}-t2", 10, 20)]
        step = {
            "index": 0, "offsetSeconds": 0, "durationSeconds": 2, "offeredRps": 20,
            "tenants": [{"tenantId": t, "rps": r, "count": n} for t, r, n in loads],
        }  # fmt: skip
        plan = {
            "simulation": simulation, "runId": None, "body": "{}", "warmupSeconds": 0,
            "classes": [{"sloClass": self.cls, "baseUrl": self.url, "warmupRequests": 0,
                         "context": {"label": "aggressive", "replicas": 1},
                         "steps": [step, {**step, "index": 1, "offsetSeconds": 2}]}],
        }  # fmt: skip
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(plan))
        return out


def test_any_simulation_is_measured_by_the_referee_from_the_exported_plan(
    openloop, service, tmp_path
):
    e = catalogue()["aggressive"].resolve({})
    options = Options(instrument="openloop", pin=False, openloop=openloop)
    r = Run(e, None, NoPods(), Path("."), tmp_path / "results", tmp_path, "t1", options=options)
    cls = e.classes[0].name  # aggenforce
    r.plans = ExportedPlan(service, cls)
    assert r.measure({cls: service}) == [cls]
    ((simulation, properties),) = r.plans.calls
    assert simulation == "AggressiveTenant" and f"-Disolato.baseUrl={service}" in properties
    run = json.loads((tmp_path / "results" / f"{cls}.openloop.json").read_text())
    assert run["runId"] == "t1-openloop" and run["context"]["label"] == "aggressive"
    assert [s["tenants"][f"{cls}-t2"]["count"] for s in run["steps"]] == [20, 20]
    h = run["hygiene"]
    assert h["instrument"] == "openloop" and "run" not in h
    assert [s["count"] for s in h["steps"]] == [40, 40]
    assert all("generatorCpuPct" in s for s in h["steps"])  # one window per 2 s step


def test_hygiene_windows_are_per_step_when_the_classes_step_together():
    def r(*durations, partial=False):
        return {"partial": partial, "steps": [{"durationSeconds": d} for d in durations]}

    assert aligned_durations([r(6, 6), r(6, 6)]) == [6, 6]
    assert aligned_durations([r(6, 6), r(6, 3)]) is None  # a window would mix two steps
    assert aligned_durations([r(6, 6), r(6, partial=True)]) is None
    assert aligned_durations([]) is None
