"""A small client of Isolato's REST API (docs/api.md): bearer token, JSON, problem+json errors."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any


class ApiError(Exception):
    """An answer >= 400; the message carries the problem+json's title, detail and field errors."""

    def __init__(self, method: str, path: str, status: int, body: bytes) -> None:
        self.method, self.path, self.status = method, path, status
        self.problem: dict[str, Any] | None = None
        try:
            parsed = json.loads(body)
            self.problem = parsed if isinstance(parsed, dict) else None
        except ValueError:
            pass
        super().__init__(f"{method} {path} -> HTTP {status}: {self._explain(body)}")

    def _explain(self, body: bytes) -> str:
        p = self.problem
        if p is None:
            return body.decode(errors="replace").strip()[:500] or "(empty answer)"
        parts = [str(p[k]) for k in ("title", "detail") if p.get(k)]
        errors = p.get("errors")
        if isinstance(errors, list):
            parts += [
                f"{e.get('field')}: {e.get('message')}" for e in errors if isinstance(e, dict)
            ]
        return "; ".join(parts) or json.dumps(p)


class ApiUnreachable(Exception):
    """No HTTP answer at all (refused, reset, timed out) after the retries."""


@dataclass(frozen=True)
class IsolatoApi:
    base_url: str
    token: str
    timeout: float = 60.0  # a request is bounded: once one sat unread on the socket for minutes
    retries: int = 2  # network failures only; a calibration posted twice stores the same run
    retry_pause: float = 1.0

    def call(self, method: str, path: str, body: Any = None) -> bytes:
        """The raw answer body of a 2xx; ApiError for >= 400, ApiUnreachable without answer."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        url = self.base_url.rstrip("/") + path
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.retry_pause)
            request = urllib.request.Request(url, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                    return answer.read()
            except urllib.error.HTTPError as e:
                raise ApiError(method, path, e.code, e.read()) from None
            except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
                last = e
        reason = getattr(last, "reason", last)
        raise ApiUnreachable(
            f"Isolato's API at {self.base_url} did not answer {method} {path}: {reason}"
        )

    def json(self, method: str, path: str, body: Any = None) -> Any:
        raw = self.call(method, path, body)
        return json.loads(raw) if raw.strip() else None

    def create(self, collection: str, key: str, body: dict[str, Any]) -> dict[str, Any] | None:
        """POSTs body to /api/v1/<collection>: None when created, the live object when body[key]
        already exists (kept as it is; the caller decides whether it may be reused)."""
        path = f"/api/v1/{collection}/{body[key]}"
        try:
            return self.json("GET", path)
        except ApiError as e:
            if e.status != 404:
                raise
        try:
            self.call("POST", f"/api/v1/{collection}", body)
            return None
        except ApiError as e:
            if e.status == 409:  # created meanwhile by someone else
                return self.json("GET", path)
            raise

    def delete_quietly(self, path: str) -> None:
        """DELETE, ignoring an object that is gone or refused (clean-up of a run)."""
        with contextlib.suppress(ApiError):
            self.call("DELETE", path)
