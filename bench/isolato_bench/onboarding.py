"""Drives `isolato-bench onboarding`'s measurements over the REST API (bench/sh/onboarding.sh starts
the controller and runs this module; see there)."""

import atexit
import concurrent.futures as cf
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

from runner.sections import load_average, write_section

from .burst_answers import Attempt, tally

API, METRICS, TOKEN = os.environ["API"], os.environ["METRICS"], os.environ["TOKEN"]
IMAGE = "localhost/isolato/saas-bench:dev"
RUN = datetime.now().strftime("%H%M%S")


def call(method, path, body=None):
    """(status, body)."""
    return request(method, path, body)[:2]


def request(method, path, body=None):
    """(status, body, headers)."""
    req = urllib.request.Request(
        API + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null"), r.headers
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null"), e.headers


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
    s, b = post_answer(tid, cls)
    assert s == 201, (tid, s, b)


class Watcher:
    """A client that watches the Tenants (kubectl's watch, no polling) and notes when it first sees
    each one Serving (monotonic clock, the same as the POSTs'). A watch the API server ends (it
    drops a watcher that falls behind) is started again: it lists first, and a tenant that became
    Serving meanwhile counts from then."""

    def __init__(self):
        self.serving: dict[str, float] = {}
        self.cond = threading.Condition()
        self.proc: subprocess.Popen | None = None
        self.closed = False
        # its kubectl ends with the run, also one that fails or is stopped (SIGTERM: __main__)
        atexit.register(self.close)
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        while not self.closed:
            self.proc = subprocess.Popen(
                [
                    "kubectl",
                    "-n",
                    "isolato-system",
                    "get",
                    "tenants",
                    "--watch",
                    "--output-watch-events",
                    # in pages (500 by default) kubectl's watch prints nothing of its first list
                    # (1.34): a watch started again beside 1,000 tenants saw none that had
                    # become Serving in between, and the burst-check failed after 300 s
                    "--chunk-size=0",
                    "-o",
                    "jsonpath={.object.metadata.name} {.object.status.phase}{'\\n'}",
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            for line in self.proc.stdout:
                name, _, phase = line.strip().partition(" ")
                if phase == "Serving":
                    self.seen([name])
            self.proc.wait()
            if not self.closed:
                rc = self.proc.returncode
                print(f"[bench] the watch ended (kubectl {rc}), watching again", flush=True)

    def seen(self, names):
        with self.cond:
            for name in names:
                self.serving.setdefault(name, time.monotonic())
            self.cond.notify_all()

    def wait(self, ids, deadline_s=180, listed=True):
        """Waits until every id was seen Serving; returns when the last one was. At the deadline
        one list decides (unless not `listed`): a tenant it shows Serving that the watch missed
        counts from then (and is said), any other fails the run with what the cluster says."""
        want = set(ids)
        with self.cond:
            self.cond.wait_for(lambda: want <= self.serving.keys(), deadline_s)
        missing = sorted(want - self.serving.keys())
        if missing and listed:
            shown = serving_now()
            if missed := [m for m in missing if m in shown]:
                self.seen(missed)
                print(
                    f"[bench] the watch missed {len(missed)} Serving tenants; a list showed them",
                    flush=True,
                )
        if missing := sorted(want - self.serving.keys()):
            raise SystemExit(
                f"not Serving within {deadline_s}s: {len(missing)} of {len(want)}, "
                f"{missing[:5]}…\n{why_not_serving(missing[:3])}"
            )
        return max(self.serving[i] for i in want)

    def close(self):
        self.closed = True
        if self.proc:
            self.proc.terminate()
            self.proc.wait()


def serving_now() -> set[str]:
    """The tenants a list shows Serving."""
    out = kubectl_out(
        "-n",
        "isolato-system",
        "get",
        "tenants",
        "-o",
        "jsonpath={range .items[*]}{.metadata.name} {.status.phase}{'\\n'}{end}",
    )
    return {n for n, _, p in (line.partition(" ") for line in out.splitlines()) if p == "Serving"}


def why_not_serving(ids) -> str:
    """What the cluster says about tenants that never became Serving and about the pools: a
    failure on a CI machine whose cluster is gone afterwards must name its cause."""
    tenant = (
        "jsonpath={.status.phase} "
        "{range .status.conditions[*]}{.type}={.status} ({.message}); {end}"
    )
    pools = (
        "jsonpath={range .items[*]}    {.metadata.name} generation {.metadata.generation} "
        "observed {.status.observedGeneration} table {.status.tableVersion} on "
        "{.status.tablePods} pods, ready {.status.readyReplicas}: {.status.tableMessage}\n{end}"
    )
    lines = [
        f"  tenant {t}: " + kubectl_out("-n", "isolato-system", "get", "tenant", t, "-o", tenant)
        for t in ids
    ]
    return "\n".join([*lines, "  pools:", kubectl_out("get", "slopools", "-o", pools)])


def kubectl_out(*args) -> str:
    r = subprocess.run(["kubectl", *args], capture_output=True, text=True, timeout=30)
    return (r.stdout or r.stderr).strip()


WATCH: Watcher | None = None
MARKS: list[dict] = []
# the reference: GET /api/v1/tenants/ID (authentication and one API server read, a path the
# onboarding work does not change), timed in the same run
GETS: list[float] = []


def onboard(tid, cls, deadline_s=180):
    """POST, then wait for the watch to see it Serving.

    Returns (accept_s, served_s server-side, served_s client-side)."""
    wall0, t0 = time.time(), time.monotonic()
    post(tid, cls)
    accept = time.monotonic() - t0
    client = WATCH.wait([tid], deadline_s) - t0
    g0 = time.monotonic()
    _, b = call("GET", "/api/v1/tenants/" + tid)
    GETS.append(time.monotonic() - g0)
    # wall-clock marks of this onboarding, for the stage breakdown (onboarding_stages.py)
    MARKS.append({"tenant": tid, "post": wall0, "accepted": wall0 + accept, "seen": wall0 + client})
    return accept, server_latency(tid, b), client


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


def writes():
    with urllib.request.urlopen(METRICS, timeout=10) as r:
        total = 0.0
        for line in r.read().decode().splitlines():
            if line.startswith("isolato_api_client_requests_total") and 'kind="write"' in line:
                total += float(line.rsplit(" ", 1)[1])
        return total


def rss_mib() -> float:
    """The controller's resident set (its pid from onboarding.sh), MiB."""
    with open(f"/proc/{os.environ['CTL_PID']}/status") as f:
        kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return kb / 1024


def offboard(tenants, classes, deadline_s=180):
    """Deletes the run's tenants, then its classes (refused with 409 while a tenant of theirs is
    still being released: retried), so their pods do not hold the node's CPU for the next run."""
    with cf.ThreadPoolExecutor(10) as ex:
        list(ex.map(lambda t: call("DELETE", "/api/v1/tenants/" + t), tenants))
    WATCH.close()
    left, t0 = set(classes), time.monotonic()
    while left and time.monotonic() - t0 < deadline_s:
        for c in sorted(left):
            if call("DELETE", "/api/v1/slo-classes/" + c)[0] in (200, 202, 204, 404):
                left.discard(c)
        time.sleep(0.5)
    if left:
        print(f"[bench] classes not deleted within {deadline_s}s: {sorted(left)}", flush=True)


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def post_answer(tid, cls):
    """POST /api/v1/tenants: (status, body)."""
    return call(*tenant_post(tid, cls))


def tenant_post(tid, cls):
    return (
        "POST",
        "/api/v1/tenants",
        {
            "tenantId": tid,
            "sloClass": cls,
            "committedRps": 1,
            "profile": {"cpu": 1, "memory": 4, "io": 0},
        },
    )


def post_attempts(tid, cls, tries=4):
    """POST /api/v1/tenants as a client that honours Retry-After (docs/api.md) does: the answers,
    the kept one last; at most `tries`, after a pause of Retry-After seconds each."""
    attempts = []
    while True:
        status, body, headers = request(*tenant_post(tid, cls))
        a = Attempt(
            status,
            headers.get("Retry-After"),
            (body or {}).get("title", "") if isinstance(body, dict) else "",
        )
        attempts.append(a)
        if not a.retryable() or len(attempts) == tries:
            return attempts
        time.sleep(min(float(a.retry_after), 5.0))


def profiled(name, fn):
    """Runs fn under a JFR recording of the controller when PROFILE names a directory."""
    out = os.environ.get("PROFILE")
    pid = os.environ.get("CTL_PID")
    if not out or not pid:
        return fn()
    subprocess.run(
        ["jcmd", pid, "JFR.start", "name=" + name, "settings=profile"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    try:
        return fn()
    finally:
        subprocess.run(
            ["jcmd", pid, "JFR.stop", "name=" + name, f"filename={out}/{name}.jfr"],
            check=True,
            stdout=subprocess.DEVNULL,
        )


def describe(t):
    """One line on a burst's answers, naming the unexpected ones."""
    line = f"created {t.created}, answered 200 {t.again}, other {t.other}, retried {t.retried}"
    return line + (f" (other: {'; '.join(t.others[:5])})" if t.others else "")


def burst(cls, n, concurrency, duplicates):
    """n distinct tenants (and `duplicates` repeated POSTs of some of them) posted by `concurrency`
    clients that retry as the API asks; returns (accept rate in tenants/s, s from the last POST to
    the last Serving seen by the watch, s from the first POST to it, the answers' Tally, API writes
    per tenant, the ids)."""
    ids = [f"{cls}-{i:04d}" for i in range(n)]
    posts = ids + ids[:duplicates]
    w0 = writes()
    t0 = time.monotonic()
    with cf.ThreadPoolExecutor(concurrency) as ex:
        answers = list(ex.map(lambda t: post_attempts(t, cls), posts))
    last_post = time.monotonic()
    served = WATCH.wait(ids, 300)
    return (
        n / (last_post - t0),
        max(0.0, served - last_post),
        served - t0,
        tally(answers[:n], answers[n:]),
        (writes() - w0) / n,
        ids,
    )


def main(out):
    global WATCH
    WATCH = Watcher()
    tenants = []
    existing = f"bx{RUN}"
    make_class(existing, 4, 1000)
    print(f"[bench] warm-up tenant in {existing} (pool start)", flush=True)
    onboard(f"{existing}-warm", existing)
    tenants.append(f"{existing}-warm")
    accepts, served, client = [], [], []
    sequential = int(os.environ.get("SEQUENTIAL", "50"))

    def phase_a():
        for i in range(sequential):
            a, s, c = onboard(f"{existing}-{i:02d}", existing)
            tenants.append(f"{existing}-{i:02d}")
            accepts.append(a), served.append(s), client.append(c)
            if i % 10 == 9:
                print(
                    f"[bench] A: {i + 1}/{sequential} onboarded, last {c * 1000:.0f} ms", flush=True
                )

    profiled("sequential", phase_a)
    if os.environ.get("PROFILE"):
        Path(os.environ["PROFILE"], "sequential.json").write_text(json.dumps(MARKS[1:], indent=1))

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
    # the clients post; completion is seen by the one watching client
    _, _, burst_s, _, burst_writes, ids = burst(burst_cls, 100, 10, 0)
    tenants += ids
    print(
        f"[bench] C: 100 tenants at concurrency 10 in {burst_s:.2f} s, "
        f"{burst_writes:.2f} API writes/tenant",
        flush=True,
    )

    big_n = int(os.environ.get("BURST_TENANTS", "1000"))
    big_cls = f"bg{RUN}"
    make_class(big_cls, 4, 100000)
    onboard(f"{big_cls}-warm", big_cls)
    tenants.append(f"{big_cls}-warm")
    dups = big_n // 5
    rate, after_last, _, big, big_writes, ids = profiled(
        "burst", lambda: burst(big_cls, big_n, 50, dups)
    )
    tenants += ids
    rss = rss_mib()
    print(
        f"[bench] D: {big_n} tenants (+{dups} duplicate POSTs) at concurrency 50: "
        f"{rate:.0f} tenants/s accepted, last Serving {after_last * 1000:.0f} ms after the last "
        f"POST; {describe(big)} ({'exact' if big.exact(big_n, dups) else 'NOT EXACT'}); "
        f"{big_writes:.2f} API writes/tenant",
        flush=True,
    )

    offboard(tenants, [existing, *(f"bn{RUN}{k}" for k in range(3)), burst_cls, big_cls])

    ref = statistics.median(GETS)
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
        (
            "existing class: POST → a watching client sees Serving, p50",
            pct(client, 50) * 1000,
            "ms",
            "",
        ),
        (
            "existing class: POST → a watching client sees Serving, p95",
            pct(client, 95) * 1000,
            "ms",
            "≤ 100 ms",
        ),
        ("existing class: POST accepted (→ 201), p95", pct(accepts, 95) * 1000, "ms", "≤ 20 ms"),
        ("API accept (POST → 201), p50", statistics.median(accepts) * 1000, "ms", ""),
        ("reference: GET of a tenant (one API server read), p50", ref * 1000, "ms", ""),
        (
            "new class: first tenant served (median of 3)",
            statistics.median(new_class),
            "s",
            "≤ 5 s",
        ),
        ("burst: 100 tenants, concurrency 10, total", burst_s, "s", "≤ 5 s"),
        ("burst: API writes per tenant", burst_writes, "", "≤ 3"),
        (
            f"burst of {big_n} at concurrency 50 (+{dups} duplicates): accepted, tenants/s",
            rate,
            "",
            "≥ 150",
        ),
        (
            f"burst of {big_n}: last Serving after the last POST",
            after_last * 1000,
            "ms",
            "≤ 1000 ms",
        ),
        (
            f"burst of {big_n}: created / answered 200 / other (retried on 503/429)",
            f"{big.created} / {big.again} / {big.other} ({big.retried})",
            "",
            f"{big_n} / {dups} / 0",
        ),
        (f"burst of {big_n}: API writes per tenant", big_writes, "", "≤ 3"),
        (
            f"controller RSS after the burst ({big_n + 155} tenants, "
            f"{os.environ.get('ISOLATO_JAVA_OPTS') or 'default heap'})",
            rss,
            "MiB",
            "",
        ),
    ]
    text = [
        f"\n### Onboarding ({datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, "
        f"{os.cpu_count()} CPUs, {cpu}, load average at the end {load_average()})\n",
        "| measure | value | goal | ratio to the reference (GET p50) |",
        "|---|---|---|---|",
    ]
    for name, v, unit, goal in rows:
        ratio = f"{(v / 1000 if unit == 'ms' else v) / ref:.1f}×" if unit in ("ms", "s") else ""
        value = v if isinstance(v, str) else f"{v:.2f} {unit}".strip()
        text.append(f"| {name} | {value} | {goal} | {ratio} |")
    print("\n".join(text))
    write_section(Path(out), "\n".join(text), "onboarding")


def check(n: int) -> None:
    """The reduced burst of `make test` (test-burst-e2e): n tenants and n/5 repeated POSTs at
    concurrency 50 into one class; asserts exactness (n created, n/5 answered 200, nothing else),
    and every tenant Serving (seen by a watching client, or at the deadline by a list); times and
    API writes per tenant are printed, not asserted."""
    global WATCH
    WATCH = Watcher()
    cls = f"bc{RUN}"
    make_class(cls, 4, 100000)
    onboard(f"{cls}-warm", cls)
    dups = n // 5
    rate, after_last, _, answers, per_tenant, ids = burst(cls, n, 50, dups)
    print(
        f"[burst-check] {n} tenants (+{dups} repeated POSTs) at concurrency 50: {rate:.0f}/s "
        f"accepted, all Serving {after_last * 1000:.0f} ms after the last POST; "
        f"{describe(answers)}; {per_tenant:.2f} API writes/tenant",
        flush=True,
    )
    # the instrument: a watch started now must list all n Serving (what a restarted one relies on)
    relisted = Watcher()
    relisted.wait(ids, 60, listed=False)
    relisted.close()
    print(f"[burst-check] a new watch listed all {n} Serving", flush=True)
    offboard([f"{cls}-warm", *ids], [cls])
    # correctness only: the write budget is ControllerIT's (deterministic, 40 tenants); here the
    # count includes every periodic status write of the run, which grows with its length (2.05 and
    # 4.01 per tenant in two runs of the same tree, 12 s and 26 s to the last Serving)
    assert answers.exact(n, dups), describe(answers)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if sys.argv[1] == "--check":
        check(int(sys.argv[2]))
    else:
        main(sys.argv[1])
