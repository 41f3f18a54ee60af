"""Drives `isolato-bench scale`'s measurement of one shape (bench/sh/scale.sh starts a bare
kube-apiserver + etcd, the controller, and a real isolato-gate in front of a real saas-bench on
the host, then runs `python -m isolato_bench.scale measure N CLASSES OUT.json` once per shape).

No kubelet, scheduler or controller manager runs: the pools' Deployments get no pods. For one
class, the probe, this module plays what they would do: it reports the pool's Deployment ready
and gives its Service an EndpointSlice whose one endpoint is the real gate on this host, so that
class's tenants go through the whole path to Serving with a real table push."""

import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from . import onboarding as ob
from . import scale_report
from .burst_answers import tally

GATE = os.environ.get("GATE", "")  # address:port of the gate the probe's EndpointSlice names
GATE_TOKEN_FILE = os.environ.get("GATE_TOKEN_FILE", "")
PROBE_ONBOARDINGS = 20
RECONCILE = "operator_sdk_controllers_execution_reconcile_seconds"


def kubectl(*args: str, stdin: str | None = None) -> str:
    return subprocess.run(
        ["kubectl", *args], input=stdin, capture_output=True, text=True, check=True
    ).stdout


def metrics() -> str:
    with urllib.request.urlopen(ob.METRICS, timeout=10) as r:
        return r.read().decode()


def reconcile_buckets(text: str, controller: str) -> dict[float, float]:
    """The cumulative histogram of the controller's reconcile times: upper bound (s) → count."""
    out: dict[float, float] = {}
    for line in text.splitlines():
        if line.startswith(RECONCILE + "_bucket") and f'controller="{controller}"' in line:
            le = re.search(r'le="([^"]+)"', line).group(1)
            out[float("inf") if le == "+Inf" else float(le)] = float(line.rsplit(" ", 1)[1])
    return out


def quantile(before: dict[float, float], after: dict[float, float], q: float) -> float:
    """The q-quantile (upper bucket bound, s) of the reconciles between two scrapes."""
    delta = sorted((le, after[le] - before.get(le, 0.0)) for le in after)
    total = delta[-1][1] if delta else 0.0
    if total <= 0:
        return float("nan")
    return next(le for le, n in delta if n >= q * total)


def wait_counted(names: list[str], want: dict[str, int], deadline_s: float) -> None:
    """Until every class's status counts its tenants (the API's class list, paged)."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        got, token = {}, None
        while True:
            _, b = ob.call(
                "GET", "/api/v1/slo-classes?limit=100" + (f"&continue={token}" if token else "")
            )
            got |= {i["name"]: (i.get("status") or {}).get("tenants") for i in b["items"]}
            token = b.get("continueToken")
            if not token:
                break
        if all(got.get(c) == want[c] for c in names):
            return
        time.sleep(1)
    raise SystemExit(f"classes did not count their tenants within {deadline_s:.0f} s")


def make_probe_ready(cls: str) -> None:
    """Plays the kubelet and the controller manager for the probe class's pool: its Deployment
    reports one ready replica and its Service one ready endpoint, the gate on this host (which
    gets the pool's admin token)."""
    ns = f"isolato-c-{cls}"
    deadline = time.monotonic() + 120
    while True:
        try:
            token = kubectl("-n", ns, "get", "secret", "saas-bench-admin", "-o", "json")
            kubectl("-n", ns, "get", "deployment", "saas-bench", "-o", "name")
            break
        except subprocess.CalledProcessError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    import base64

    data = json.loads(token)["data"]
    Path(GATE_TOKEN_FILE).write_text(
        "\n".join(base64.b64decode(v).decode().strip() for v in data.values()) + "\n"
    )
    time.sleep(1.2)  # the gate reads its token file every 500 ms
    host, port = GATE.rsplit(":", 1)
    kubectl(
        "apply",
        "-f",
        "-",
        stdin=json.dumps(
            {
                "apiVersion": "discovery.k8s.io/v1",
                "kind": "EndpointSlice",
                "metadata": {
                    "name": "saas-bench-probe",
                    "namespace": ns,
                    # as Kubernetes' EndpointSlice controller labels its slices: the controller
                    # pushes tables only to those (docs/security.md)
                    "labels": {
                        "kubernetes.io/service-name": "saas-bench",
                        "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io",
                    },
                },
                "addressType": "IPv4",
                "endpoints": [{"addresses": [host], "conditions": {"ready": True}}],
                "ports": [{"name": "http", "port": int(port), "protocol": "TCP"}],
            }
        ),
    )
    gen = kubectl(
        "-n", ns, "get", "deployment", "saas-bench", "-o", "jsonpath={.metadata.generation}"
    )
    status = {"observedGeneration": int(gen), "replicas": 1, "readyReplicas": 1}
    status |= {"availableReplicas": 1, "updatedReplicas": 1}
    kubectl(
        "-n", ns, "patch", "deployment", "saas-bench", "--subresource=status", "--type=merge",
        "-p", json.dumps({"status": status}),
    )  # fmt: skip


def push_table(probe: str, rows: int) -> tuple[int, float, int]:
    """A tenant table of `rows` rows, each a copy of the probe pool's first row (the controller's
    format), PUT to the gate (which forwards it to saas-bench) as the controller pushes it:
    (bytes, median seconds of 5, HTTP status)."""
    pushed = kubectl(
        "-n", f"isolato-c-{probe}", "get", "configmap", "tenant-table",
        "-o", "jsonpath={.data.tenants\\.json}",
    )  # fmt: skip
    entry = next(iter(json.loads(pushed)["tenants"].values()))
    tenants = {f"{probe}-{i:05d}": entry for i in range(rows)}
    body = json.dumps(
        {"tenants": tenants, "version": f"{rows:016x}"}, separators=(",", ":"), sort_keys=True
    ).encode()
    token = Path(GATE_TOKEN_FILE).read_text().split()[0]
    times, status = [], 0
    for _ in range(5):
        req = urllib.request.Request(
            f"http://{GATE}/v1/admin/tenants",
            method="PUT",
            data=body,
            headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"},
        )
        t0 = time.monotonic()
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                r.read()
                status = r.status
        except urllib.error.HTTPError as e:
            status = e.code
        times.append(time.monotonic() - t0)
    return len(body), sorted(times)[2], status


def memory(pid: str) -> dict:
    """After a full GC: RSS, heap used, threads, and the heap histogram's top rows."""
    subprocess.run(["jcmd", pid, "GC.run"], check=True, stdout=subprocess.DEVNULL)
    time.sleep(2)
    used = scale_report.heap_used_mib(
        subprocess.check_output(["jcmd", pid, "GC.heap_info"], text=True)
    )
    histogram = subprocess.check_output(["jcmd", pid, "GC.class_histogram"], text=True)
    threads = len(os.listdir(f"/proc/{pid}/task"))
    names = [
        Path(f"/proc/{pid}/task/{tid}/comm").read_text().strip()
        for tid in os.listdir(f"/proc/{pid}/task")
    ]
    nmt = subprocess.run(
        ["jcmd", pid, "VM.native_memory", "summary"], capture_output=True, text=True
    ).stdout
    return {
        "rss_mib": ob.rss_mib(),
        "heap_used_mib": used,
        "threads": threads,
        "thread_groups": scale_report.thread_groups(names),
        "histogram": histogram.splitlines()[:23],
        # only with -XX:NativeMemoryTracking=summary: where the RSS goes, JVM area by area
        "committed_mib": scale_report.nmt_committed_mib(nmt),
    }


def measure(n: int, classes: int, out: str) -> None:
    names = [f"sc{ob.RUN}-{k:03d}" for k in range(classes)]
    # watching from the start: a watch's first answer lists what is there as one event, which
    # Watcher does not read
    ob.WATCH = ob.Watcher()
    with cf.ThreadPoolExecutor(10) as ex:
        list(ex.map(lambda c: ob.make_class(c, 1, 100000), names))
    probe = names[0]
    make_probe_ready(probe)
    ids = [(f"{names[i % classes]}-{i:05d}", names[i % classes]) for i in range(n)]
    w0, t0 = ob.writes(), time.monotonic()
    with cf.ThreadPoolExecutor(50) as ex:
        answers = tally(list(ex.map(lambda t: ob.post_attempts(*t), ids)), [])
    posted = time.monotonic() - t0
    assert answers.exact(n, 0), ob.describe(answers)
    print(
        f"[scale] {n} tenants posted in {posted:.1f} s ({n / posted:.0f}/s); "
        f"{ob.describe(answers)}",
        flush=True,
    )
    want = {c: n // classes + (1 if k < n % classes else 0) for k, c in enumerate(names)}
    wait_counted(names, want, 900)
    settled = time.monotonic() - t0
    per_tenant = (ob.writes() - w0) / n
    print(
        f"[scale] every class counts its tenants {settled:.1f} s after the first POST", flush=True
    )
    # the probe: sequential onboardings into a class among all the others, seen by a watch
    ob.WATCH.wait([t for t, c in ids if c == probe], 300)
    before = reconcile_buckets(metrics(), "sloclass")
    served = []
    for i in range(PROBE_ONBOARDINGS):
        served.append(ob.onboard(f"{probe}-p{i:02d}", probe)[2])
    after = reconcile_buckets(metrics(), "sloclass")
    ob.WATCH.close()
    size, push_s, push_status = push_table(probe, n)
    time.sleep(10)  # the last passes' garbage: memory once the controller is idle
    result = {
        "tenants": n,
        "classes": classes,
        "posted_s": posted,
        "settled_s": settled,
        "writes_per_tenant": per_tenant,
        "onboarding_p50_s": ob.pct(served, 50),
        "onboarding_p95_s": ob.pct(served, 95),
        "class_reconcile_p50_s": quantile(before, after, 0.5),
        "class_reconcile_p95_s": quantile(before, after, 0.95),
        "table_bytes": size,
        "table_push_s": push_s,
        "table_push_status": push_status,
        "java_opts": os.environ.get("ISOLATO_JAVA_OPTS", ""),
        **memory(os.environ["CTL_PID"]),
    }
    Path(out).write_text(json.dumps(result, indent=1))
    print(json.dumps({k: v for k, v in result.items() if k != "histogram"}), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "measure":
        measure(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
