"""Control-plane faults survived by the controller installed with Helm (`isolato-bench chaos`).

On localkube with the chart installed (2 replicas; bench/sh/chaos.sh installs it), onboards a
steady-load tenant and a 200-tenant burst into one class, then injects, one after another:

  leader-kills   the lease holder's JVM SIGKILLed (its pod force-deleted so the Deployment
                 replaces it) 10 times at seeded random instants during the burst
  apiserver      kube-apiserver restarted (`localkube restart kube-apiserver`)
  etcd-pause     etcd stopped with SIGSTOP for 10 s, then SIGCONT
  kubelet        the kubelet restarted (`localkube restart kubelet`)
  node           the whole node restarted (`localkube down`, `localkube up`)
  handover       the leader's JVM SIGKILLed --handovers times per lease setting, the reference
                 (10 s / 8 s / 2 s, Kubernetes' own components' order) and the chart's: seconds
                 from the kill to another replica holding the lease, and to the first onboarding
                 the API Service accepts (a new tenant POSTed every 0.1 s, open loop, up
                 to 64 at once: a try into the dead pod's address does not hold others back;
                 faster, 25/s, the tries themselves slowed the new leader's first answers)

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
from http.client import HTTPException
from pathlib import Path

import yaml
from runner.places import BENCHMARK_LOG, REPO_ROOT, RESULTS
from runner.sections import write_section

from .verdict import (
    FaultResult,
    fault_table,
    first_acceptance,
    histogram_buckets,
    kill_instants,
    latency_bound,
    load_window,
    spread,
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


def http(
    method: str, url: str, token: str | None = None, body: dict | None = None, timeout: float = 3
) -> int:
    """Status code, 0 when no answer came (refused, reset, timed out)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    req = urllib.request.Request(
        url, method=method, headers=headers, data=json.dumps(body).encode() if body else None
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except (OSError, urllib.error.URLError, HTTPException, ValueError):
        return 0  # ValueError: a chunked answer cut off by the dying process


def tenant_body(tid: str, rps: float = 1) -> dict:
    return {
        "tenantId": tid,
        "sloClass": CLASS,
        "committedRps": rps,
        "profile": {"cpu": 1, "memory": 4, "io": 0},
    }


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

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = 3) -> int:
        return http(method, self.api + path, self.token, body, timeout)

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
        return self.post_until_taken("/api/v1/tenants", tenant_body(tid, rps))

    def lease_holder(self) -> str:
        return sh("kubectl", "-n", NS, "get", "lease", "isolato-controller",
                  "-o", "jsonpath={.spec.holderIdentity}", check=False, timeout=30)  # fmt: skip

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


def only_other(endpoints: str, pod: str) -> bool:
    """Whether an EndpointSlice line ("<pod>=<ready> ...") has ready endpoints, none of them
    `pod`'s."""
    ready = [e.split("=")[0] for e in endpoints.split() if e.endswith("=true")]
    return bool(ready) and pod not in ready


class Watch:
    """`kubectl get --watch` of one kind in the controller's namespace, each change's jsonpath
    value kept with the time it arrived."""

    def __init__(self, kind: str, *args: str) -> None:
        *selector, template = args
        # go-template, not jsonpath: a jsonpath `range` over a list that became empty (the
        # Service without endpoints) is an error that ends kubectl's watch
        line = f"go-template={template}\n"  # one line per change
        self.proc = subprocess.Popen(
            ["kubectl", "-n", NS, "get", kind, *selector, "--watch", "-o", line],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.seen: list[tuple[float, str]] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.seen.append((now(), line.strip()))

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.reader.join(timeout=5)

    def first_after(self, t0: float, wanted) -> float | None:
        return next((t for t, v in self.seen if t >= t0 and wanted(v)), None)


class ApiProbe(threading.Thread):
    """Onboards a new tenant through the API Service every `period` s, open loop: a try that
    hangs (sent to the dead pod's address before kube-proxy dropped it) does not hold the next
    ones back, up to `in_flight` tries at once, each with a `timeout`. Keeps (sent, code,
    answered) of every try: when the API is back, to `period`."""

    def __init__(
        self, run: Run, tag: str, period: float = 0.1, in_flight: int = 64, timeout: float = 2
    ) -> None:
        super().__init__(daemon=True)
        self.run_, self.tag, self.period, self.timeout = run, tag, period, timeout
        self.accepted: list[tuple[float, float]] = []
        self.tries: list[tuple[float, int, float]] = []  # (sent, HTTP code or 0, answered)
        self.stop = threading.Event()
        self.slots = threading.Semaphore(in_flight)
        self.pool = cf.ThreadPoolExecutor(in_flight, thread_name_prefix=f"probe-{tag}")

    def run(self) -> None:
        i = 0
        while not self.stop.is_set():
            if self.slots.acquire(blocking=False):  # all slots hang: skip this tick
                self.pool.submit(self.once, f"ho-{self.tag}-{i}")
                i += 1
            self.stop.wait(self.period)
        self.pool.shutdown(wait=True)

    def once(self, tid: str) -> None:
        try:
            with self.run_.lock:
                self.run_.attempted.add(tid)
            sent = now()
            code = self.run_.cluster.call(
                "POST", "/api/v1/tenants", tenant_body(tid), timeout=self.timeout
            )
            self.tries.append((sent, code, now()))
            if code in (200, 201):
                with self.run_.lock:
                    self.run_.accepted.add(tid)
                self.accepted.append((sent, now()))
            elif code not in (0, 429) and code < 500:
                with self.run_.lock:
                    self.run_.refusals.append(f"POST {tid}: HTTP {code}")
        finally:
            self.slots.release()

    def back_after(self, t0: float) -> float | None:
        """When the first onboarding sent after `t0` was accepted."""
        return next((answered for sent, answered in self.accepted if sent >= t0), None)


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
        self.handovers: list[dict] = []
        self.lease_puts_before = lease_put_buckets()

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

    def handover(self) -> None:
        """Crash hand-over, per lease setting, in one run (the reference first)."""
        chart = chart_lease()
        for label, lease in (("reference", REFERENCE_LEASE), ("chart", chart)):
            self.set_lease(lease)
            start = now()
            crashes = [self.crash_once(f"{label}-{k}") for k in range(self.args.handovers)]
            self.handovers.append({"lease": label, "timing": lease, "crashes": crashes})
            times = {}
            for k in ("lease_s", "label_s", "endpoint_s", "api_s"):
                xs = [c[k] for c in crashes if c[k] is not None]
                times[k] = spread(xs).render() if xs else "—"
            self.record(
                f"leader JVM killed ×{len(crashes)}, {label} lease {'/'.join(lease)}",
                start,
                now(),
                load_goal=True,
                detail=f"new lease holder after {times['lease_s']} s; its pod labelled after"
                f" {times['label_s']} s; the API Service's only endpoint after"
                f" {times['endpoint_s']} s; API accepts after {times['api_s']} s (the first"
                f" accepted POST {first_answers(crashes)}); kube-proxy's syncs per crash:"
                f" {proxy_summary(crashes)}",
                extra={"lease": lease, "crashes": crashes},
                complete=all(c["api_s"] is not None for c in crashes),
            )

    def set_lease(self, lease: tuple[str, str, str]) -> None:
        keys = ("leaseDuration", "renewDeadline", "retryPeriod")
        sets = ",".join(f"leaderElection.{k}={v}" for k, v in zip(keys, lease, strict=True))
        log(f"lease {'/'.join(lease)}: helm upgrade")
        sh(os.environ["HELM"], "upgrade", "isolato", str(ROOT / "helm/isolato"), "-n", NS,
           "--reuse-values", "--set", sets, "--wait", "--timeout", "3m", timeout=240)  # fmt: skip
        sh("kubectl", "-n", NS, "rollout", "status", "deployment/isolato-controller",
           "--timeout=180s", timeout=200)  # fmt: skip

    def crash_once(self, tag: str) -> dict:
        """SIGKILLs the leader's JVM (its pod force-deleted too, as in leader-kills): seconds to
        a new lease holder and to the first onboarding the API Service accepts."""
        end = time.monotonic() + LEADER_WAIT_S
        while (pod := self.cluster.leader_pod()) is None or len(self.ready_pods()) < 2:
            if time.monotonic() > end:
                raise RuntimeError(f"no ready leader with a ready standby in {LEADER_WAIT_S} s")
            time.sleep(0.2)
        holder = self.cluster.lease_holder()
        # What the API server saw, as it happened: the lease, the pod labelled for the API
        # Service (config/LeaderRouting), the Service's ready endpoints.
        watches = {
            "lease": Watch("lease", "isolato-controller", "{{.spec.holderIdentity}}"),
            "label": Watch("pods", "-l", "isolato.dev/api-leader=true", "{{.metadata.name}}"),
            "endpoint": Watch(
                "endpointslices",
                "-l",
                "kubernetes.io/service-name=isolato",
                "{{range .endpoints}}{{.targetRef.name}}={{.conditions.ready}} {{end}}",
            ),
        }
        proxy_before = kube_proxy_buckets()
        probe = ApiProbe(self, tag)
        probe.start()
        crash_pod_jvm(pod)
        t0 = now()  # the JVM is gone: what is accepted from now on, another replica accepted
        sh("kubectl", "-n", NS, "delete", "pod", pod, "--grace-period=0", "--force",
           "--wait=false", check=False)  # fmt: skip
        api_s = None
        while now() - t0 < 60 and api_s is None:
            back = probe.back_after(t0)
            api_s = None if back is None else back - t0
            time.sleep(0.05)
        probe.stop.set()
        for w in watches.values():
            w.stop()
        probe.join(timeout=10)
        # seconds from the kill to: another lease holder, its pod labelled, the Service's only
        # ready endpoint being another pod, the API accepting
        seen = {
            "lease_s": watches["lease"].first_after(t0, lambda v: v not in ("", holder)),
            "label_s": watches["label"].first_after(t0, lambda v: v not in ("", pod)),
            "endpoint_s": watches["endpoint"].first_after(t0, lambda v: only_other(v, pod)),
        }
        seen = {k: None if v is None else round(v - t0, 2) for k, v in seen.items()}
        first = first_acceptance(probe.tries, t0)
        proxy_after = kube_proxy_buckets()
        proxy = {
            k: vars(latency_bound(proxy_before.get(k, {}), after))
            for k, after in proxy_after.items()
        }
        log(f"  {tag}: killed {pod}; {seen}, API back after {api_s} s; kube-proxy {proxy}")
        log(f"  {tag}: the first POST accepted: {first}")
        return {"pod": pod, **seen, "api_s": api_s, "kube_proxy": proxy, "first_accepted": first}

    def ready_pods(self) -> list[str]:
        pods = kubectl_json("-n", NS, "get", "pods", "-l", "app.kubernetes.io/name=isolato")
        return [
            p["metadata"]["name"]
            for p in pods["items"]
            if not p["metadata"].get("deletionTimestamp")
            and any(s.get("ready") for s in p["status"].get("containerStatuses") or [])
        ]

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


FAULTS = ["leader-kills", "apiserver", "etcd-pause", "kubelet", "node", "handover"]
REFERENCE_LEASE = ("10s", "8s", "2s")


def chart_lease() -> tuple[str, str, str]:
    """The chart's default lease timings (helm/isolato/values.yaml)."""
    le = yaml.safe_load((ROOT / "helm/isolato/values.yaml").read_text())["leaderElection"]
    return (le["leaseDuration"], le["renewDeadline"], le["retryPeriod"])


def lease_put_buckets() -> dict[float, float]:
    """The API server's latency histogram of Lease writes (the leaders' renewals: fabric8
    patches, the kubelets and Kubernetes' own components update), summed."""
    text = sh("kubectl", "get", "--raw", "/metrics", timeout=60, check=False)
    writes = {"resource": {"leases"}, "verb": {"PUT", "PATCH", "APPLY"}}
    return histogram_buckets(text, "apiserver_request_duration_seconds", writes)


def kube_proxy_buckets() -> dict[str, dict[float, float]]:
    """kube-proxy's own histogram of how long a rules sync took (localkube's node, metrics on
    loopback). Its network-programming histogram counts from an endpoint's last trigger time,
    which a crash's window does not bound: not read."""
    try:
        with urllib.request.urlopen("http://127.0.0.1:10249/metrics", timeout=5) as r:
            text = r.read().decode()
    except OSError:
        return {}
    return {
        "sync_s": histogram_buckets(text, "kubeproxy_sync_proxy_rules_duration_seconds", {}),
    }


def proxy_summary(crashes: list[dict]) -> str:
    """kube-proxy's rule syncs in each crash's window: how many, and the bucket bound of the
    slowest (its histogram's widths are the error)."""
    parts = []
    for c in crashes:
        sync = c["kube_proxy"].get("sync_s")
        if not sync:
            return "not read"
        parts.append(f"{sync['count']} ≤ {sync['max_le']} s")
    return ", ".join(parts)


def first_answers(crashes: list[dict]) -> str:
    """When the first accepted POST of each crash was sent, and how long the new leader took to
    answer it (the rest of a hand-over once kube-proxy sends to the new leader)."""
    firsts = [c["first_accepted"] for c in crashes if c.get("first_accepted")]
    if not firsts:
        return "—"
    sent = spread([f["sent_s"] for f in firsts])
    answer = spread([f["answer_ms"] / 1000 for f in firsts])
    return f"sent after {sent.render()} s, answered in {answer.render()} s"


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
    lease_puts = latency_bound(run.lease_puts_before, lease_put_buckets())
    lease = "/".join(chart_lease())
    doc = {
        "started": started,
        "machine": machine(),
        "seed": run.args.seed,
        "args": vars(run.args) | {"out": str(run.args.out), "benchmarks": str(bench)},
        "load_period_s": 0.1,
        "passed": ok,
        "faults": run.records,
        "lease_puts": vars(lease_puts),
    }
    (out / "results.json").write_text(json.dumps(doc, indent=2) + "\n")
    table = fault_table(run.results)
    (out / "README.md").write_text(
        f"""# Control-plane faults (issue 10, item 5)

Produced by `make chaos` (`isolato-bench chaos`: bench/sh/chaos.sh → faults/chaos.py) on {started},
{doc["machine"]}. **The machine is shared**: other builds and tests ran on the same 2 CPUs, so
the times are upper bounds of a busy host. Raw data: [results.json](results.json).

The chart installed on localkube with 2 replicas (lease / renew / retry {lease}); one
class (`{CLASS}`), a steady-load tenant and a burst of {run.args.tenants} tenants, then each
fault in turn, {run.args.during} more tenants onboarded during each. After each fault, every
tenant accepted so far must have its one Tenant object, be in exactly one pool table, be
Serving and get a 200 from its pool again ("converged after": from the fault's start; for the
leader kills, from the last kill). The
steady load sends one request every 0.1 s to the load tenant through the pool's Service; its
errors are counted from the fault's start until convergence (goal 0 for controller and
API-server faults). Seed of the kill instants: {run.args.seed}.

{table}

Lease writes (renewals; PUT, PATCH) as the API server timed them over the whole run
(`apiserver_request_duration_seconds`): {lease_puts.render()}.
"""
    )
    write_section(
        bench,
        f"## Control-plane faults ({out.name}) — {started}, {doc['machine']}\n"
        "From `make chaos` (`isolato-bench chaos`; table and raw JSON in"
        f" [results/{out.name}]({os.path.relpath(out / 'README.md', bench.parent)}))."
        " Shared machine: other helpers' builds and tests ran meanwhile.\n\n"
        f"{table}\n\nLease writes (renewals) as the API server timed them over the run:"
        f" {lease_puts.render()}.\n",
        # one section per results folder: a reduced run does not replace the full one
        "chaos" if out.name == "chaos" else f"chaos-{out.name}",
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
    p.add_argument("--handovers", type=int, default=5, help="leader crashes per lease setting")
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
