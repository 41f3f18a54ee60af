"""Drives `isolato-bench onboarding`'s measurements over the REST API (bench/sh/onboarding.sh starts
the controller and runs this module; see there)."""

import concurrent.futures as cf
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

from runner.sections import write_section

API, METRICS, TOKEN = os.environ["API"], os.environ["METRICS"], os.environ["TOKEN"]
IMAGE = "localhost/isolato/saas-bench:dev"
RUN = datetime.now().strftime("%H%M%S")


def call(method, path, body=None):
    req = urllib.request.Request(
        API + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def make_class(name, max_replicas, cutoff):
    s, b = call(
        "POST",
        "/api/v1/slo-classes",
        {
            "name": name,
            "spec": {
                "latency": {"percentile": 95, "targetMs": 100},
                "resources": {"cpu": "100m", "memory": "32Mi"},
                "priority": 10,
                "minReplicas": 1,
                "maxReplicas": max_replicas,
                "pivotPercent": 80,
                "perPodCutoffRps": cutoff,
                "image": IMAGE,
            },
        },
    )
    assert s == 201, (s, b)


def post(tid, cls):
    s, b = call(
        "POST",
        "/api/v1/tenants",
        {
            "tenantId": tid,
            "sloClass": cls,
            "committedRps": 1,
            "profile": {"cpu": 1, "memory": 4, "io": 0},
        },
    )
    assert s == 201, (tid, s, b)


def onboard(tid, cls, deadline_s=180):
    """POST, then poll GET until Serving.

    Returns (accept_s, served_s server-side, served_s client-side)."""
    t0 = time.monotonic()
    post(tid, cls)
    accept = time.monotonic() - t0
    while time.monotonic() - t0 < deadline_s:
        _, b = call("GET", "/api/v1/tenants/" + tid)
        if (b.get("status") or {}).get("phase") == "Serving":
            client = time.monotonic() - t0
            return accept, server_latency(tid, b), client
        time.sleep(0.01)
    raise SystemExit(f"{tid} not Serving within {deadline_s}s")


def server_latency(tid, body):
    """servingSince − accepted-at annotation, both written by the controller (ms precision)."""
    ann = json.loads(
        subprocess.check_output(
            [
                "kubectl",
                "-n",
                "isolato-system",
                "get",
                "tenant",
                tid,
                "-o",
                "jsonpath={.metadata.annotations}",
            ]
        )
    )
    accepted = int(ann["isolato.dev/accepted-at"]) / 1000
    served = datetime.fromisoformat(
        body["status"]["servingSince"].replace("Z", "+00:00")
    ).timestamp()
    return served - accepted


def all_serving(ids, deadline_s=180):
    """Polls the tenant list (one caller, every 20 ms) until every id is Serving."""
    want, t0 = set(ids), time.monotonic()
    while time.monotonic() - t0 < deadline_s:
        _, b = call("GET", "/api/v1/tenants?limit=1000")
        if want <= {
            i["tenantId"] for i in b["items"] if (i.get("status") or {}).get("phase") == "Serving"
        }:
            return
        time.sleep(0.02)
    raise SystemExit(f"burst not Serving within {deadline_s}s")


def writes():
    with urllib.request.urlopen(METRICS, timeout=10) as r:
        total = 0.0
        for line in r.read().decode().splitlines():
            if line.startswith("isolato_api_client_requests_total") and 'kind="write"' in line:
                total += float(line.rsplit(" ", 1)[1])
        return total


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def main(out):
    tenants = []
    existing = f"bx{RUN}"
    make_class(existing, 4, 1000)
    print(f"[bench] warm-up tenant in {existing} (pool start)", flush=True)
    onboard(f"{existing}-warm", existing)
    tenants.append(f"{existing}-warm")
    accepts, served, client = [], [], []
    for i in range(50):
        a, s, c = onboard(f"{existing}-{i:02d}", existing)
        tenants.append(f"{existing}-{i:02d}")
        accepts.append(a), served.append(s), client.append(c)
        if i % 10 == 9:
            print(f"[bench] A: {i + 1}/50 onboarded, last {s * 1000:.0f} ms", flush=True)

    new_class = []
    for k in range(3):
        cls = f"bn{RUN}{k}"
        make_class(cls, 2, 100)
        _, s, _ = onboard(f"{cls}-first", cls)
        tenants.append(f"{cls}-first")
        new_class.append(s)
        print(f"[bench] B: first tenant of new class {cls}: {s:.2f} s", flush=True)

    burst_cls = f"bb{RUN}"
    make_class(burst_cls, 4, 1000)
    onboard(f"{burst_cls}-warm", burst_cls)
    tenants.append(f"{burst_cls}-warm")
    ids = [f"{burst_cls}-{i:03d}" for i in range(100)]
    w0 = writes()
    t0 = time.monotonic()
    # posted by 10 clients; completion watched by one poller of the tenant list, so the
    # clients' polling does not compete with the controller for the 2 cores
    with cf.ThreadPoolExecutor(10) as ex:
        list(ex.map(lambda t: post(t, burst_cls), ids))
    all_serving(ids)
    burst_s = time.monotonic() - t0
    burst_writes = (writes() - w0) / 100
    tenants += ids
    print(
        f"[bench] C: 100 tenants at concurrency 10 in {burst_s:.2f} s, "
        f"{burst_writes:.2f} API writes/tenant",
        flush=True,
    )

    for t in tenants:
        call("DELETE", "/api/v1/tenants/" + t)

    ref = statistics.median(accepts)
    with open("/proc/cpuinfo") as f:
        cpu = next(
            (line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?"
        )
    rows = [
        (
            "existing class: API accepted → served, p50",
            pct(served, 50) * 1000,
            "ms",
            "≤ 250 ms (p95)",
        ),
        ("existing class: API accepted → served, p95", pct(served, 95) * 1000, "ms", "≤ 250 ms"),
        ("existing class: client POST → GET says Serving, p95", pct(client, 95) * 1000, "ms", ""),
        ("reference: API accept (POST → 201), p50", ref * 1000, "ms", ""),
        (
            "new class: first tenant served (median of 3)",
            statistics.median(new_class),
            "s",
            "≤ 5 s",
        ),
        ("burst: 100 tenants, concurrency 10, total", burst_s, "s", "≤ 5 s"),
        ("burst: API writes per tenant", burst_writes, "", "≤ 3"),
    ]
    text = [
        f"\n### Onboarding ({datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, "
        f"{os.cpu_count()} CPUs, {cpu})\n",
        "| measure | value | goal | ratio to API accept p50 |",
        "|---|---|---|---|",
    ]
    for name, v, unit, goal in rows:
        ratio = f"{(v / 1000 if unit == 'ms' else v) / ref:.1f}×" if unit in ("ms", "s") else ""
        text.append(f"| {name} | {v:.2f} {unit} | {goal} | {ratio} |")
    print("\n".join(text))
    write_section(Path(out), "\n".join(text), "onboarding")


if __name__ == "__main__":
    main(sys.argv[1])
