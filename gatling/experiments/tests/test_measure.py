"""The measuring path of a run (Run.measure) with the real open-loop generator, sending the plans
the real Gatling module exports, against a real HTTP service with a known knee on loopback: the
ramp, the knee's bisection, the hygiene block, a simulation of another kind. Only the cluster is
absent (no pods to follow), and HYGIENE=off (no cgroups are touched)."""

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
from runner.plan_export import PlanExporter
from runner.run import Run, aligned_durations

REPO_ROOT = Path(__file__).resolve().parents[3]

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


@pytest.fixture(scope="module")
def plans(tmp_path_factory):
    """The Gatling module's plan export (its classpath built once for the module)."""
    if not shutil.which("java"):
        pytest.skip("java is not installed")
    exporter = PlanExporter(REPO_ROOT, tmp_path_factory.mktemp("plans"))
    exporter.classpath()
    return exporter


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

    def class_ready_replicas(self, slo_class):
        return 0


class ScalingOut(NoPods):
    """A class whose pool gains a ready pod each time it is looked at (an autoscaler acting)."""

    def __init__(self):
        self.ready = 0

    def class_ready_replicas(self, slo_class):
        self.ready += 1
        return self.ready


def test_an_openloop_ramp_is_bisected_near_its_knee_and_marked(openloop, plans, service, tmp_path):
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
    r = Run(e, None, ScalingOut(), Path("."), tmp_path / "results", tmp_path, "t1", options=options)
    r.plans = plans
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
    assert h["pods"] == {"atStart": 1, "atEnd": 2}  # read before the ramp, after the probes


def test_any_simulation_is_measured_by_the_referee_from_the_exported_plan(
    openloop, plans, service, tmp_path
):
    e = catalogue()["aggressive"].resolve({})
    props = {
        **e.simulation.properties,
        "committedRps": 10,
        "factors": "1,2",
        "requestsPerStep": 40,  # 30 req/s for 1.33 s, then 40 for 1 s
        "warmup": "false",
    }
    e = replace(e, simulation=Simulation(e.simulation.name, e.simulation.service_urls, props))
    options = Options(instrument="openloop", pin=False, openloop=openloop)
    r = Run(e, None, NoPods(), Path("."), tmp_path / "results", tmp_path, "t1", options=options)
    r.plans = plans
    cls = e.classes[0].name  # aggenforce
    assert r.measure({cls: service}) == [cls]
    run = json.loads((tmp_path / "results" / f"{cls}.openloop.json").read_text())
    assert run["runId"] == "t1-openloop" and run["context"]["admission"] == "enforce"
    counts = [[s["tenants"][f"{cls}-t{i}"]["count"] for i in (1, 2, 3)] for s in run["steps"]]
    assert counts == [[13, 13, 13], [20, 10, 10]]  # t1 the aggressive one, 2 x in step 1
    h = run["hygiene"]
    assert h["instrument"] == "openloop" and "run" not in h
    assert [s["count"] for s in h["steps"]] == [39, 40]
    assert "generatorCpuPct" in h["steps"][0]  # one window per step


def test_hygiene_windows_are_per_step_when_the_classes_step_together():
    def r(*durations, partial=False):
        return {"partial": partial, "steps": [{"durationSeconds": d} for d in durations]}

    assert aligned_durations([r(6, 6), r(6, 6)]) == [6, 6]
    assert aligned_durations([r(6, 6), r(6, 3)]) is None  # a window would mix two steps
    assert aligned_durations([r(6, 6), r(6, partial=True)]) is None
    assert aligned_durations([]) is None
