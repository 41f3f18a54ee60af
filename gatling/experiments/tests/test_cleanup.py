"""A run whose definition deletes what it created (finish: deleteCreated) does so when it fails
too, against a real HTTP server on loopback that keeps classes and tenants as the controller does,
and a kubectl that fails every call (no cluster: the tenants never become Serving)."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from runner.api import IsolatoApi
from runner.cluster import Kubectl
from runner.definition import catalogue
from runner.run import Run, RunError


@pytest.fixture
def controller():
    objects: dict[str, dict] = {}
    deleted: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, status, body):
            raw = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def do_GET(self):
            if self.path in ("/api/v1/slo-classes", "/api/v1/tenants"):
                self.reply(200, {"items": list(objects.values())})
            elif self.path in objects:
                self.reply(200, objects[self.path])
            else:
                self.reply(404, {"status": 404, "title": "Not Found"})

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            key = body.get("name") or body.get("tenantId")
            objects[f"{self.path}/{key}"] = body
            self.reply(201, body)

        def do_DELETE(self):
            deleted.append(self.path)
            objects.pop(self.path, None)
            self.reply(202, {})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield IsolatoApi(f"http://127.0.0.1:{server.server_address[1]}", "t"), objects, deleted
    server.shutdown()


def failing_run(api, tmp_path, name):
    e = catalogue()[name].resolve({})
    kube = Kubectl(binary="false")
    return e, Run(e, api, kube, Path("."), tmp_path / "results", tmp_path, "r", ready_timeout_s=1)


def test_a_failed_run_deletes_the_tenants_and_classes_it_created(controller, tmp_path):
    api, objects, deleted = controller
    e, run = failing_run(api, tmp_path, "accuracy")
    with pytest.raises(RunError, match="not Serving"):
        run.execute()
    tenants = [f"/api/v1/tenants/{t.tenant_id}" for t in e.tenants]
    classes = [f"/api/v1/slo-classes/{c.name}" for c in e.classes]
    assert tenants and classes
    assert deleted == tenants + classes  # tenants first: a class with tenants is refused
    assert objects == {}


def test_a_definition_without_delete_created_keeps_its_objects(controller, tmp_path):
    api, objects, deleted = controller
    _, run = failing_run(api, tmp_path, "smoke")
    with pytest.raises(RunError):
        run.execute()
    assert deleted == []
    assert objects  # kept for the next run to reuse
