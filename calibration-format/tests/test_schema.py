"""The JSON schema accepts what the producers write and the docs show, and rejects bad runs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import validate_runs

REPO = Path(__file__).resolve().parents[2]


def documented_runs() -> list[str]:
    text = (REPO / "docs" / "calibration-format.md").read_text()
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    return [b for b in blocks if '"schemaVersion"' in b]


def test_the_docs_examples_are_valid() -> None:
    runs = documented_runs()
    assert runs, "docs/calibration-format.md shows a run"
    for run in runs:
        assert validate_runs.violations(json.loads(run)) == []


def test_a_bad_run_is_reported_by_path() -> None:
    run = json.loads(documented_runs()[0])
    run["context"].pop("replicas")
    run["steps"][0]["offeredRps"] = 0
    run["steps"][0]["total"]["count"] = 0

    found = validate_runs.violations(run)

    assert [v.split(":")[0] for v in found] == [
        "$.context",
        "$.steps[0].offeredRps",
        "$.steps[0].total.count",
    ], found
    assert "'replicas' is a required property" in found[0]


def test_pod_cpu_is_a_positive_quantity() -> None:
    run = json.loads(documented_runs()[0])
    for bad in ["0", "0m", "-1", "lots", "1e3"]:
        run["context"]["podCpu"] = bad
        assert [v.split(":")[0] for v in validate_runs.violations(run)] == ["$.context.podCpu"], bad
    run["context"]["podCpu"] = "400m"
    assert validate_runs.violations(run) == []


class _Ok(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def service():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Ok)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def test_the_open_loop_generator_writes_a_valid_run(service: str, tmp_path: Path) -> None:
    binary = tmp_path / "openloop"
    subprocess.run(
        ["go", "build", "-o", str(binary), "."], cwd=REPO / "gatling" / "openloop", check=True
    )
    out = tmp_path / "gold.json"
    subprocess.run(
        [str(binary), "-url", service, "-class", "gold", "-tenants", "t1,t2", "-rates", "50,100",
         "-requests", "40", "-warmup", "0s", "-context", "replicas=2,podCpu=400m,weight=1.5",
         "-out", str(out)],
        check=True, capture_output=True,
    )  # fmt: skip

    run = json.loads(out.read_text())
    assert validate_runs.violations(run) == []
    assert [s["offeredRps"] for s in run["steps"]] == [50, 100]
    assert run["context"]["replicas"] == 2
