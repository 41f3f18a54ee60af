"""Posting and comparing (Run.report) against a real HTTP server on loopback that answers as
the controller does: a contaminated run is not posted unless CONTAMINATED=post, the referee is
posted first, and both instruments' cut-offs are compared."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from runner.api import IsolatoApi
from runner.definition import catalogue
from runner.instruments import Options
from runner.run import Run

CUTOFFS = {"gatling": 45.0, "openloop": 50.0}


@pytest.fixture
def controller():
    posted = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, body):
            raw = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def do_POST(self):
            run = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            posted.append(run["runId"])
            rps = CUTOFFS[run["hygiene"]["instrument"]]
            self.reply({"runId": run["runId"], "cutoff": {"status": "found", "cutoffRps": rps}})

        def do_GET(self):
            self.reply({"spec": {"latency": {"percentile": 95, "targetMs": 50}}, "status": {}})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield IsolatoApi(f"http://127.0.0.1:{server.server_address[1]}", "t"), posted
    server.shutdown()


def store(results: Path, instrument: str, status: str, low_p95: float) -> None:
    name = "e2egold.json" if instrument == "gatling" else "e2egold.openloop.json"
    steps = [
        {"index": i, "offeredRps": r, "total": {"count": 60, "errors": 0, "p95": low_p95 + i}}
        for i, r in enumerate((5.0, 20.0, 35.0, 50.0))
    ]
    run = {"runId": instrument, "sloClass": "e2egold", "steps": steps}
    run["hygiene"] = {"instrument": instrument, "status": status, "reasons": []}
    (results / name).write_text(json.dumps(run))


def report(controller, tmp_path, post_contaminated):
    api, posted = controller
    results = tmp_path / "results"
    results.mkdir()
    # an earlier run's answer (REPLACE=1 writes over the runs, not over what they were answered)
    (results / "e2egold.response.json").write_text('{"runId": "earlier"}')
    store(results, "openloop", "clean", 7.0)
    store(results, "gatling", "contaminated", 7.5)
    options = Options(instrument="both", post_contaminated=post_contaminated)
    e = catalogue()["smoke"].resolve({})
    Run(e, api, None, Path("."), results, tmp_path, "r", options=options).report("e2egold")
    return posted, json.loads((results / "e2egold.comparison.json").read_text())


def test_a_contaminated_run_is_not_posted_and_the_comparison_says_so(controller, tmp_path):
    posted, c = report(controller, tmp_path, post_contaminated=False)
    assert posted == ["openloop"]
    assert not (tmp_path / "results" / "e2egold.response.json").exists()
    assert (tmp_path / "results" / "e2egold.openloop.response.json").exists()
    assert c["verdict"] == "inconclusive"
    assert c["reasons"] == ["no cut-off measured by gatling"]


def test_both_posted_referee_first_and_compared(controller, tmp_path):
    posted, c = report(controller, tmp_path, post_contaminated=True)
    assert posted == ["openloop", "gatling"]
    assert c["verdict"] == "agrees"  # 45 vs 50: within max(5, one step of 15)
    assert c["cutoff"]["toleranceRps"] == 15.0
    assert c["lowLoad"]["p95DiffMs"] == 0.5


def test_an_experiment_that_does_not_calibrate_is_compared_step_by_step(controller, tmp_path):
    api, posted = controller
    results = tmp_path / "results"
    results.mkdir()
    e = catalogue()["aggressive"].resolve({})
    cls = e.classes[0].name
    for instrument, p95 in (("gatling", (8.0, 60.0)), ("openloop", (7.0, 400.0))):
        steps = [
            {"index": i, "offeredRps": 75.0 * (i + 1), "tenants": {f"{cls}-t2": {"p95": p}}}
            for i, p in enumerate(p95)
        ]
        run = {"runId": instrument, "sloClass": cls, "steps": steps}
        run["hygiene"] = {"instrument": instrument, "status": "clean", "reasons": []}
        name = f"{cls}.json" if instrument == "gatling" else f"{cls}.openloop.json"
        (results / name).write_text(json.dumps(run))
    options = Options(instrument="both")
    Run(e, api, None, Path("."), results, tmp_path, "r", options=options).report(cls)
    assert posted == []  # calibrate: false
    c = json.loads((results / f"{cls}.comparison.json").read_text())
    assert c["kind"] == "steps" and c["verdict"] == "agrees"  # step 1: both above 50 ms
    assert c["rule"]["targetMs"] == 50.0
