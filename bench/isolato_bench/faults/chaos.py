"""Control-plane faults survived by the controller installed with Helm (`isolato-bench chaos`).

On localkube with the chart installed (2 replicas; bench/sh/chaos.sh installs it), onboards a
steady-load tenant and a 200-tenant burst into one class, then injects, one after another:

  leader-kills   the lease holder's JVM SIGKILLed (its pod force-deleted so the Deployment
                 replaces it) 10 times at seeded random instants during the burst
  apiserver      kube-apiserver restarted (`localkube restart kube-apiserver`)
  etcd-pause     etcd stopped with SIGSTOP for 10 s, then SIGCONT
  kubelet        the kubelet restarted (`localkube restart kubelet`)
  node           the whole node restarted (`localkube down`, `localkube up`)

A few tenants are onboarded during each fault too. After each fault it waits until every tenant
accepted so far has its one Tenant object, is in exactly one pool table, is Serving and is
answered (200) by its pool again: the time from the fault's start to that is "converged after".
A steady load (one request every 0.1 s to the load tenant through the pool's Service) runs
throughout; its errors are counted per fault window (goal: 0 for controller and API-server
faults). Writes results.json and README.md to --out and its section of docs/benchmarks-log.md.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import os
import platform
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

from runner.places import BENCHMARK_LOG, REPO_ROOT, RESULTS
from runner.sections import write_section

from .verdict import (
    FaultResult,
    fault_table,
    kill_instants,
    load_window,
    table_ids,
    tenant_verdict,
)

ROOT = REPO_ROOT
LK = str(ROOT / "localkube/localkube")
NS = "isolato-system"
CLASS = "chaos"
POOL_NS = f"isolato-c-{CLASS}"
LOAD_TENANT = "chaos-load"
IMAGE = "localhost/isolato/saas-bench:dev"
T0 = time.monotonic()
LEADER_WAIT_S = 120


def now() -> float:
    return round(time.monotonic() - T0, 2)


def log(msg: str) -> None:
    print(f"[chaos {now():7.1f}s] {msg}", file=sys.stderr, flush=True)


def sh(*args: str, timeout: float = 60, check: bool = True) -> str:
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if check and p.returncode:
        raise RuntimeError(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()[-500:]}")
    return p.stdout


def kubectl_json(*args: str) -> dict:
    return json.loads(sh("kubectl", *args, "-o", "json", timeout=30))


def http(method: str, url: str, token: str | None = None, body: dict | None = None) -> int:
    """Status code, 0 when no answer came (refused, reset, timed out)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    req = urllib.request.Request(
        url, method=method, headers=headers, data=json.dumps(body).encode() if body else None
    )
    try:
        with urllib.request.urlopen(req, timeout=3) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except (OSError, urllib.error.URLError):
        return 0


class Cluster:
    def __init__(self) -> None:
        svc = kubectl_json("-n", NS, "get", "svc", "isolato")
        self.api = f"http://{svc['spec']['clusterIP']}:8080"
        secret = sh(
            "kubectl", "-n", NS, "get", "secret", "isolato-api-tokens",
            "-o", "jsonpath={.data.admin}",
        )  # fmt: skip
        self.token = subprocess.run(
            ["base64", "-d"], input=secret, capture_output=True, text=True, check=True
        ).stdout
        self.pool = ""

    def call(self, method: str, path: str, body: dict | None = None) -> int:
        return http(method, self.api + path, self.token, body)

    def post_until_taken(self, path: str, body: dict, deadline_s: float = 180) -> bool:
        """POSTed until the API takes it: 201, 200 (the same body again) or 409 (an earlier try
        got through with another body; the verdict checks the object). No
        answer, 429 and 5xx (no leader behind the Service, API server away) are retried."""
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            code = self.call("POST", path, body)
            if code in (200, 201, 409):
                return True
            if code not in (0, 429) and code < 500:
                raise RuntimeError(f"POST {path} {body}: HTTP {code}")
            time.sleep(0.3)
        return False

    def onboard(self, tid: str, rps: float = 1) -> bool:
        body = {
            "tenantId": tid,
            "sloClass": CLASS,
            "committedRps": rps,
            "profile": {"cpu": 1, "memory": 4, "io": 0},
        }
        return self.post_until_taken("/api/v1/tenants", body)

    def pool_url(self) -> str:
        svc = kubectl_json("-n", POOL_NS, "get", "svc", "saas-bench")
        return f"http://{svc['spec']['clusterIP']}:8080"

    def served(self, tid: str) -> bool:
        return http("POST", f"{self.pool}/v1/tenants/{tid}/requests") == 200

    def leader_pod(self) -> str | None:
        """The lease holder's pod, when it is a running pod (identity = <pod>-<suffix>)."""
        try:
            lease = kubectl_json("-n", NS, "get", "lease", "isolato-controller")
        except (RuntimeError, subprocess.TimeoutExpired):
            return None
        holder = lease["spec"].get("holderIdentity") or ""
        pod = holder.rsplit("-", 1)[0]
        pods = kubectl_json("-n", NS, "get", "pods", "-l", "app.kubernetes.io/name=isolato")
        for p in pods["items"]:
            if p["metadata"]["name"] == pod and not p["metadata"].get("deletionTimestamp"):
                statuses = p["status"].get("containerStatuses") or []
                if statuses and statuses[0].get("ready"):
                    return pod
        return None


class Load(threading.Thread):
    """One request every `period` s to the load tenant through the pool Service."""

    def __init__(self, cluster: Cluster, period: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.cluster, self.period = cluster, period
        self.samples: list[tuple[float, bool]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        url = f"{self.cluster.pool}/v1/tenants/{LOAD_TENANT}/requests"
        while not self.stop.is_set():
            t = now()
            self.samples.append((t, http("POST", url) == 200))
            self.stop.wait(max(0.0, self.period - (now() - t)))


def observe(cluster: Cluster, expected: set[str], served: set[str], unconfirmed: frozenset[str]):
    """One look at the cluster: the verdict over `expected`, serving the ones not yet served."""
    tenants = kubectl_json("-n", NS, "get", "tenants")["items"]
    names = [t["metadata"]["name"] for t in tenants]
    phases = {t["metadata"]["name"]: (t.get("status") or {}).get("phase", "") for t in tenants}
    tables = {}
    cms = kubectl_json("get", "configmaps", "-A", "--field-selector", "metadata.name=tenant-table")
    for cm in cms["items"]:
        raw = (cm.get("data") or {}).get("tenants.json")
        tables[cm["metadata"]["namespace"]] = table_ids(raw) if raw else []
    wanted = expected | (unconfirmed & set(names))
    unprobed = [i for i in wanted if i not in served and phases.get(i) == "Serving"]
    with cf.ThreadPoolExecutor(8) as ex:
        for tid, ok in zip(unprobed, ex.map(cluster.served, unprobed), strict=True):
            if ok:
                served.add(tid)
    return tenant_verdict(expected, names, phases, tables, served, unconfirmed)


def converge(
    cluster: Cluster,
    expected: set[str],
    unconfirmed: frozenset[str],
    since: float,
    deadline_s: float = 240,
):
    """Polls until every expected tenant is back (verdict ok); seconds since `since`, or None."""
    served: set[str] = set()
    end = time.monotonic() + deadline_s
    verdict = None
    while time.monotonic() < end:
        try:
            verdict = observe(cluster, expected, served, unconfirmed)
        except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
            log(f"  cluster not answering yet: {str(e)[:120]}")
            time.sleep(1)
            continue
        if verdict.ok:
            return now() - since, verdict
        time.sleep(0.5)
    return None, verdict


class Run:
    def __init__(self, args) -> None:
        self.args = args
        self.cluster = Cluster()
        self.accepted: set[str] = set()
        self.attempted: set[str] = set()
        self.refusals: list[str] = []
        self.results: list[FaultResult] = []
        self.records: list[dict] = []
        self.load: Load | None = None
        self.lock = threading.Lock()

    def onboard(self, tid: str, rps: float = 1) -> None:
        with self.lock:
            self.attempted.add(tid)
        try:
            taken = self.cluster.onboard(tid, rps)
        except RuntimeError as e:  # a 4xx: kept as never accepted, and said (not swallowed)
            with self.lock:
                self.refusals.append(str(e))
            log(f"  {tid} refused: {e}")
            return
        if taken:
            with self.lock:
                self.accepted.add(tid)
        else:
            log(f"  {tid} not accepted within the deadline")

    def setup(self) -> None:
        spec = {
            "latency": {"percentile": 95, "targetMs": 200},
            "resources": {"cpu": "100m", "memory": "64Mi"},
            "priority": 100,
            "minReplicas": 1,
            "maxReplicas": 2,
            "pivotPercent": 80,
            "perPodCutoffRps": 300,
            "image": IMAGE,
        }
        if not self.cluster.post_until_taken("/api/v1/slo-classes", {"name": CLASS, "spec": spec}):
            raise SystemExit(f"class {CLASS} not accepted in 180 s")
        self.onboard(LOAD_TENANT, rps=50)
        t = now()
        sh("kubectl", "-n", NS, "wait", "--for=jsonpath={.status.phase}=Serving",
           f"tenant/{LOAD_TENANT}", "--timeout=180s", timeout=200)  # fmt: skip
        self.cluster.pool = self.cluster.pool_url()
        end = time.monotonic() + 60
        while not self.cluster.served(LOAD_TENANT):
            if time.monotonic() > end:
                raise SystemExit("the load tenant is not served by its pool")
            time.sleep(0.3)
        log(f"class {CLASS}, {LOAD_TENANT} served after {now() - t:.1f} s; steady load starts")
        self.load = Load(self.cluster)
        self.load.start()

    def during(self, name: str, count: int) -> threading.Thread:
        """Onboards `count` tenants while a fault happens (each retried until the API takes it)."""
        ids = [f"{name}-{i}" for i in range(count)]

        def go():
            for tid in ids:
                self.onboard(tid)

        th = threading.Thread(target=go, daemon=True)
        th.start()
        return th

    def record(self, name, start, end, load_goal, detail="", *, extra=None, onboarding=None,
               since=None, complete=True):  # fmt: skip
        """Waits for convergence, counted from `since` (default: the fault's start)."""
        since = start if since is None else since
        if onboarding:
            onboarding.join(timeout=200)
        with self.lock:
            accepted, unconfirmed = set(self.accepted), frozenset(self.attempted - self.accepted)
        converged, verdict = converge(self.cluster, accepted, unconfirmed, since)
        assert self.load is not None
        stop = now() if converged is None else since + converged
        window = load_window(self.load.samples, start, stop)
        result = FaultResult(
            name, len(self.attempted), verdict, converged, window, load_goal, detail, complete
        )
        self.results.append(result)
        if not result.passed:
            diagnose(self.args.out / "diagnostics", name.split()[0] + "-not-converged")
        self.records.append(
            {
                "fault": name,
                "start_s": start,
                "fault_end_s": end,
                "converged_after_s": converged,
                "converged_counted_from_s": since,
                "tenants": len(self.attempted),
                "accepted": len(self.accepted),
                "lost": verdict.lost,
                "duplicated": verdict.duplicated,
                "not_serving": verdict.not_serving,
                "not_served": verdict.not_served,
                "unexpected": verdict.unexpected,
                "not_accepted": verdict.not_accepted,
                "refusals_so_far": list(self.refusals),
                "load_requests": window.requests,
                "load_errors": window.errors,
                "load_goal_zero_errors": load_goal,
                "passed": result.passed,
                **(extra or {}),
            }
        )
        log(f"{name}: {verdict.summary()}; converged after {converged} s; load {window.render()}")

    # --- faults -------------------------------------------------------------------------------

    def leader_kills(self) -> None:
        a = self.args
        instants = kill_instants(a.seed, a.kills, a.burst_window, a.min_gap)
        log(f"burst of {a.tenants} tenants over {a.burst_window} s; kills at {instants}")
        start = now()
        kills: list[dict] = []
        killer = threading.Thread(target=self.kill_series, args=(start, instants, kills))
        killer.start()
        pace = a.burst_window / a.tenants
        with cf.ThreadPoolExecutor(6) as ex:
            for i in range(a.tenants):
                time.sleep(max(0.0, start + i * pace - now()))
                ex.submit(self.onboard, f"t-{i:03d}")
        killer.join()
        done = [k for k in kills if "pod" in k]
        waits = [k["waited_for_leader_s"] for k in kills]
        detail = (
            f"seed {a.seed}; SIGKILL + pod force-deleted; a kill waited ≤ {max(waits):.1f} s"
            " for a ready leader"
        )
        if len(done) < a.kills:
            detail += f"; NO ready leader for {LEADER_WAIT_S} s after kill {len(done)}"
        self.record(
            f"leader pod killed ×{len(done)} during a {a.tenants}-tenant burst",
            start,
            now(),
            load_goal=True,
            detail=detail,
            extra={"seed": a.seed, "planned_instants_s": instants, "kills": kills},
            since=kills[-1]["at_s"],
            complete=len(done) == a.kills,
        )

    def kill_series(self, start: float, instants: list[float], kills: list[dict]) -> None:
        """Kills the leader at each planned instant (later when a hand-over is still going on);
        stops, keeping diagnostics, when no ready leader appears within LEADER_WAIT_S."""
        for planned in instants:
            time.sleep(max(0.0, start + planned - now()))
            kills.append(self.kill_leader(start + planned))
            if "pod" not in kills[-1]:
                diagnose(self.args.out / "diagnostics", f"no-leader-after-kill-{len(kills) - 1}")
                return

    def kill_leader(self, planned: float) -> dict:
        """SIGKILLs the lease holder's JVM (no lease release) and force-deletes its pod.
        When no ready pod holds the lease (a hand-over in progress), waits for one, and lets a
        new leader serve --min-gap s first (else a late schedule kills every leader at once and
        the API never serves: a test of nothing but the hand-over)."""
        t = now()
        end = time.monotonic() + LEADER_WAIT_S
        while (pod := self.cluster.leader_pod()) is None:
            if time.monotonic() > end:
                log(f"  no ready leader for {LEADER_WAIT_S} s")
                return {"at_s": now(), "planned_s": planned, "waited_for_leader_s": now() - t}
            time.sleep(0.2)
        if now() - t > 0.5:
            time.sleep(self.args.min_gap)
            pod = self.cluster.leader_pod() or pod
        killed = crash_pod_jvm(pod)
        sh("kubectl", "-n", NS, "delete", "pod", pod, "--grace-period=0", "--force",
           "--wait=false", check=False)  # fmt: skip
        log(f"  killed leader {pod} (JVM pids {killed}) at {now():.1f} s (planned {planned:.1f})")
        return {"pod": pod, "at_s": now(), "planned_s": planned, "waited_for_leader_s": now() - t}

    def simple_fault(self, name: str, load_goal: bool, inject, detail: str = "") -> None:
        log(f"{name}")
        th = self.during(name.split()[0], self.args.during)
        start = now()
        inject()
        end = now()
        log(f"  injected in {end - start:.1f} s")
        self.record(name, start, end, load_goal, detail, onboarding=th)

    def apiserver(self) -> None:
        self.simple_fault(
            "kube-apiserver restarted",
            True,
            lambda: sh(LK, "restart", "kube-apiserver", timeout=180),
            "localkube restart kube-apiserver",
        )

    def etcd_pause(self) -> None:
        def inject():
            pid = int(sh(LK, "pid", "etcd").strip())
            os.kill(pid, signal.SIGSTOP)
            try:
                time.sleep(self.args.pause)
            finally:
                os.kill(pid, signal.SIGCONT)

        self.simple_fault(
            f"etcd paused {self.args.pause:.0f} s (SIGSTOP/SIGCONT)",
            False,
            inject,
            "load goal not applied: the API server and the lease stop meanwhile",
        )

    def kubelet(self) -> None:
        self.simple_fault(
            "kubelet restarted",
            False,
            lambda: sh(LK, "restart", "kubelet", timeout=180),
            "localkube restart kubelet",
        )

    def node(self) -> None:
        def inject():
            sh(LK, "down", timeout=300)
            sh(LK, "up", timeout=600)

        self.simple_fault(
            "node restarted (localkube down/up)",
            False,
            inject,
            "every container stops: pools are down until their pods restart",
        )
        # New pod IPs do not change the Service's ClusterIP; the load keeps its URL.

    def finish(self) -> None:
        if self.load:
            self.load.stop.set()
            self.load.join(timeout=5)


def crash_pod_jvm(pod: str) -> list[int]:
    """SIGKILL to the controller JVM of `pod` (found by its HOSTNAME), like a crash."""
    killed = []
    for pid in sh("pgrep", "-f", "/opt/isolato/isolato-controller.jar", check=False).split():
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if f"HOSTNAME={pod}".encode() in env:
            os.kill(int(pid), signal.SIGKILL)
            killed.append(int(pid))
    return killed


def diagnose(folder: Path, what: str) -> None:
    """Keeps the lease, the controller pods, their logs and recent events for a failure."""
    folder.mkdir(parents=True, exist_ok=True)
    out = [f"# {what} at {now()} s"]
    for args in (
        ("-n", NS, "get", "lease", "isolato-controller", "-o", "yaml"),
        ("-n", NS, "get", "pods", "-o", "wide"),
        ("-n", NS, "describe", "pods", "-l", "app.kubernetes.io/name=isolato"),
        ("-n", NS, "logs", "-l", "app.kubernetes.io/name=isolato", "--prefix", "--tail=80"),
        ("-n", NS, "get", "events", "--sort-by=.lastTimestamp"),
    ):
        out.append(f"## kubectl {' '.join(args)}")
        try:
            out.append(sh("kubectl", *args, check=False, timeout=30))
        except subprocess.TimeoutExpired:
            out.append("(timed out)")
    (folder / f"{what}.txt").write_text("\n".join(out))
    log(f"  diagnostics in {folder / (what + '.txt')}")


FAULTS = ["leader-kills", "apiserver", "etcd-pause", "kubelet", "node"]


def machine() -> str:
    model = ""
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    load = os.getloadavg()
    return (
        f"{platform.node()}, {os.cpu_count()} CPUs, {model}, localkube v1.34.4, "
        f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )


def write(run: Run, out: Path, started: str, bench: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    ok = all(r.passed for r in run.results)
    doc = {
        "started": started,
        "machine": machine(),
        "seed": run.args.seed,
        "args": vars(run.args) | {"out": str(run.args.out), "benchmarks": str(bench)},
        "load_period_s": 0.1,
        "passed": ok,
        "faults": run.records,
    }
    (out / "results.json").write_text(json.dumps(doc, indent=2) + "\n")
    table = fault_table(run.results)
    (out / "README.md").write_text(
        f"""# Control-plane faults (issue 10, item 5)

Produced by `make chaos` (`isolato-bench chaos`: bench/sh/chaos.sh → faults/chaos.py) on {started},
{doc["machine"]}. **The machine is shared**: other builds and tests ran on the same 2 CPUs, so
the times are upper bounds of a busy host. Raw data: [results.json](results.json).

The chart installed on localkube with 2 replicas (lease 10 s / renew 8 s / retry 2 s); one
class (`{CLASS}`), a steady-load tenant and a burst of {run.args.tenants} tenants, then each
fault in turn, {run.args.during} more tenants onboarded during each. After each fault, every
tenant accepted so far must have its one Tenant object, be in exactly one pool table, be
Serving and get a 200 from its pool again ("converged after": from the fault's start; for the
leader kills, from the last kill). The
steady load sends one request every 0.1 s to the load tenant through the pool's Service; its
errors are counted from the fault's start until convergence (goal 0 for controller and
API-server faults). Seed of the kill instants: {run.args.seed}.

{table}
"""
    )
    write_section(
        bench,
        f"## Control-plane faults — {started}, {doc['machine']}\n"
        "From `make chaos` (`isolato-bench chaos`; table and raw JSON in"
        f" [results/chaos]({os.path.relpath(out / 'README.md', bench.parent)})). Shared machine:"
        " other helpers' builds and tests ran meanwhile.\n\n"
        f"{table}\n",
        "chaos",
    )


def parser(add_help: bool = True) -> argparse.ArgumentParser:
    """chaos's options (also the `isolato-bench chaos` subcommand's)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], add_help=add_help)
    p.add_argument("--faults", default=",".join(FAULTS), help="comma-separated, in this order")
    p.add_argument("--seed", type=int, default=int(time.time()) % 100_000)
    p.add_argument("--tenants", type=int, default=200)
    p.add_argument("--kills", type=int, default=10)
    p.add_argument("--burst-window", type=float, default=100.0, help="seconds the burst lasts")
    p.add_argument("--min-gap", type=float, default=5.0, help="seconds between planned kills")
    p.add_argument("--during", type=int, default=5, help="tenants onboarded during each fault")
    p.add_argument("--pause", type=float, default=10.0, help="seconds etcd stays stopped")
    p.add_argument("--out", type=Path, default=RESULTS / "chaos")
    p.add_argument("--benchmarks", type=Path, default=BENCHMARK_LOG)
    return p


def main(argv: list[str] | None = None) -> None:
    p = parser()
    args = p.parse_args(argv)
    faults = args.faults.split(",")
    unknown = [f for f in faults if f not in FAULTS]
    if unknown:
        p.error(f"unknown fault(s) {unknown}; known: {FAULTS}")
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    run = Run(args)
    try:
        run.setup()
        for f in faults:
            try:
                getattr(run, f.replace("-", "_"))()
            except (RuntimeError, subprocess.SubprocessError, OSError) as e:
                log(f"{f}: {e}")
                diagnose(args.out / "diagnostics", f"{f}-error")
                raise
    finally:
        run.finish()
        if run.results:
            write(run, args.out, started, args.benchmarks)
    failed = [r.name for r in run.results if not r.passed]
    if failed:
        raise SystemExit(f"FAIL: {failed} (see {args.out}/README.md)")
    log(f"PASS: {len(run.results)} faults")


if __name__ == "__main__":
    main()
