"""The API client against a real HTTP server on loopback (http.server), not a mock."""

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest
from runner.api import ApiError, ApiUnreachable, IsolatoApi

TOKEN = "t0ken"


class FakeIsolato(BaseHTTPRequestHandler):
    """Classes in memory; problem+json errors like the controller's."""

    classes: ClassVar[dict] = {}
    seen: ClassVar[list] = []

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json"):
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def problem(self, status, title, detail, errors=None):
        body = {"type": "about:blank", "title": title, "status": status, "detail": detail}
        if errors:
            body["errors"] = errors
        self.answer(status, body, "application/problem+json")

    def handle_one(self, method):
        self.seen.append((method, self.path, self.headers.get("Authorization")))
        if self.headers.get("Authorization") != f"Bearer {TOKEN}":
            return self.problem(401, "Unauthorized", "a bearer token is required")
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length)) if length else None
        name = self.path.rsplit("/", 1)[-1]
        if self.path == "/api/v1/text-error":
            return self.answer(500, b"boom", "text/plain")
        if method == "GET" and self.path.startswith("/api/v1/slo-classes/"):
            if name in self.classes:
                return self.answer(200, self.classes[name])
            return self.problem(404, "Not Found", f"no SLO class {name}")
        if method == "POST" and self.path == "/api/v1/slo-classes":
            if not body.get("spec"):
                return self.problem(
                    400, "Bad Request", "invalid class", [{"field": "spec", "message": "required"}]
                )
            if body["name"] == "racing":  # created by someone else between GET and POST
                self.classes["racing"] = {"name": "racing", "spec": {"by": "someone else"}}
                return self.problem(409, "Conflict", "exists")
            self.classes[body["name"]] = body
            return self.answer(201, body)
        if method == "DELETE":
            return self.problem(404, "Not Found", "gone")
        return self.problem(405, "Method Not Allowed", method)

    def do_GET(self):
        self.handle_one("GET")

    def do_POST(self):
        self.handle_one("POST")

    def do_DELETE(self):
        self.handle_one("DELETE")


@pytest.fixture
def server():
    FakeIsolato.classes, FakeIsolato.seen = {}, []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakeIsolato)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_create_posts_a_missing_object_and_keeps_an_existing_one(server):
    api = IsolatoApi(server, TOKEN)
    body = {"name": "gold", "spec": {"priority": 1}}
    assert api.create("slo-classes", "name", body) is None
    assert api.json("GET", "/api/v1/slo-classes/gold") == body
    assert api.create("slo-classes", "name", {"name": "gold", "spec": {"priority": 2}}) == body
    assert FakeIsolato.classes["gold"]["spec"]["priority"] == 1  # kept as it is
    racing = api.create("slo-classes", "name", {"name": "racing", "spec": {"x": 1}})
    assert racing == {"name": "racing", "spec": {"by": "someone else"}}
    assert all(auth == f"Bearer {TOKEN}" for _, _, auth in FakeIsolato.seen)


def test_problem_json_becomes_a_message_with_its_field_errors(server):
    api = IsolatoApi(server, TOKEN)
    with pytest.raises(ApiError) as e:
        api.create("slo-classes", "name", {"name": "bad"})
    assert e.value.status == 400
    assert str(e.value) == (
        "POST /api/v1/slo-classes -> HTTP 400: Bad Request; invalid class; spec: required"
    )
    assert e.value.problem["detail"] == "invalid class"


def test_a_wrong_token_is_an_error_not_a_retry(server):
    with pytest.raises(ApiError, match="HTTP 401: Unauthorized; a bearer token is required"):
        IsolatoApi(server, "wrong").call("GET", "/api/v1/slo-classes")
    assert len(FakeIsolato.seen) == 1


def test_a_body_that_is_not_json_is_quoted(server):
    with pytest.raises(ApiError, match="HTTP 500: boom"):
        IsolatoApi(server, TOKEN).call("GET", "/api/v1/text-error")


def test_delete_quietly_ignores_a_gone_object(server):
    IsolatoApi(server, TOKEN).delete_quietly("/api/v1/tenants/nobody")
    assert FakeIsolato.seen[-1][:2] == ("DELETE", "/api/v1/tenants/nobody")


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_no_answer_is_unreachable_after_the_retries():
    api = IsolatoApi(f"http://127.0.0.1:{closed_port()}", TOKEN, retries=2, retry_pause=0)
    with pytest.raises(ApiUnreachable, match="did not answer GET /api/v1/slo-classes"):
        api.call("GET", "/api/v1/slo-classes")


def test_a_silent_server_times_out():
    with socket.socket() as listener:  # accepts connections (backlog) but never answers
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        api = IsolatoApi(url, TOKEN, timeout=0.3, retries=1, retry_pause=0)
        with pytest.raises(ApiUnreachable, match="timed out"):
            api.call("GET", "/api/v1/slo-classes")
