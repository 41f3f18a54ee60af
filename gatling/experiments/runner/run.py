"""One experiment run on localkube through Isolato's REST API (docs/gatling.md, "Experiments").

Creates the classes and tenants, runs the definition's steps, waits until every tenant is
served through its class Service, runs the simulation, posts the runs as calibrations, stores
everything and draws the plots.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import simulation as sim
from .api import ApiError, IsolatoApi
from .cluster import ClusterError, Kubectl
from .definition import Calibrate, DeleteCreated, Experiment, Step, Verdict
from .verdict import holds, verdict

EXPERIMENTS_DIR = Path(__file__).resolve().parent.parent


class RunError(Exception):
    """The run cannot go on; the message says why and what to look at."""


def log(message: str) -> None:
    print(f"[experiment] {message}", file=sys.stderr, flush=True)


def _write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=2) + "\n")


@dataclass
class Run:
    experiment: Experiment
    api: IsolatoApi
    kube: Kubectl
    repo_root: Path
    results_dir: Path
    work_dir: Path
    run_id: str
    ready_timeout_s: int = 240

    @property
    def out_dir(self) -> Path:
        return self.work_dir / "out"

    # ------------------------------------------------------------------------ the sequence

    def execute(self) -> None:
        e = self.experiment
        self.api.call("GET", "/api/v1/slo-classes")  # reachable, and the token is accepted
        log(
            f"experiment {e.name} (run {self.run_id}): {len(e.classes)} classes, "
            f"{len(e.tenants)} tenants, {e.simulation.name}; results in {self.results_dir}"
        )
        for c in e.classes:
            log(f"creating SLO class {c.name}")
            if not self.api.create("slo-classes", "name", c.body()):
                log(f"  already exists: {c.name}")
        self.steps("afterClasses")
        for t in e.tenants:
            log(f"onboarding tenant {t.tenant_id} into {t.slo_class}")
            if not self.api.create("tenants", "tenantId", t.body()):
                log(f"  already exists: {t.tenant_id}")
        self.steps("afterTenants")
        urls = self.wait_served()
        args = [
            *e.simulation.args(urls),
            f"-Disolato.runId={self.run_id}",
            f"-Disolato.outputDir={self.out_dir}",
        ]
        log(f"running {e.simulation.name} (bounded: planned duration + 15 s)")
        try:
            status = sim.run(sim.command(self.repo_root, e.simulation.name, args))
        except KeyboardInterrupt:
            log("interrupted: the load is stopped")
            self.save_runs()
            log(
                f'partial results (complete steps only, "partial": true) kept in {self.results_dir}'
            )
            raise
        if status != 0:
            raise RunError(f"the simulation failed with exit status {status} (its output is above)")
        runs = self.save_runs()
        for slo_class in runs:
            self.report(slo_class)
        self.steps("finish")
        plot = subprocess.run(
            [sys.executable, str(EXPERIMENTS_DIR / "plot.py"), str(self.results_dir)]
        )
        if plot.returncode != 0:
            raise RunError(f"plot.py failed on {self.results_dir}")
        log(f"results in {self.results_dir}")

    def wait_served(self) -> dict[str, str]:
        """Every tenant Serving (the controller's status), then answering 2xx through its class
        Service; the Service URL of each class."""
        deadline = time.monotonic() + self.ready_timeout_s
        urls: dict[str, str] = {}
        for t in self.experiment.tenants:
            log(f"waiting until tenant {t.tenant_id} is Serving (max {self.ready_timeout_s}s)")
            try:
                self.kube.wait_tenant_serving(t.tenant_id, int(deadline - time.monotonic()))
            except ClusterError as e:
                raise RunError(
                    f"tenant {t.tenant_id} not Serving after {self.ready_timeout_s}s (class "
                    f"{t.slo_class} has no ready pods? kubectl get pods -A -l "
                    f"isolato.dev/class={t.slo_class}): {e}"
                ) from None
            if t.slo_class not in urls:
                urls[t.slo_class] = self.kube.class_service_url(t.slo_class)
            url = f"{urls[t.slo_class]}/v1/tenants/{t.tenant_id}/requests"
            log(f"waiting until tenant {t.tenant_id} answers at {url}")
            last = _probe(url)
            while not (200 <= last < 300):
                if time.monotonic() > deadline:
                    raise RunError(
                        f"tenant {t.tenant_id} not served after "
                        f"{self.ready_timeout_s}s (last HTTP {last or 'no answer'})"
                    )
                time.sleep(1)  # a new Service's kube-proxy rule lags Serving by about a second
                last = _probe(url)
        return urls

    def save_runs(self) -> list[str]:
        """Copies the simulation's run files into the results directory; their classes."""
        self.results_dir.mkdir(parents=True, exist_ok=True)
        classes = []
        for f in sorted(self.out_dir.glob("*.json")):
            shutil.copy2(f, self.results_dir / f.name)
            classes.append(json.loads(f.read_text())["sloClass"])
        if not classes:
            log("no calibration results were written")
        return classes

    def report(self, slo_class: str) -> None:
        """Posts the class's run (unless the definition says calibrate: false), stores and
        prints the class's status."""
        calibrate = self.experiment.calibrate
        if calibrate:
            log(f"posting the calibration of {slo_class} to /api/v1/calibrations")
            run = json.loads((self.results_dir / f"{slo_class}.json").read_text())
            try:
                answer = self.api.call("POST", "/api/v1/calibrations", run)
            except ApiError as e:
                raise RunError(f"the calibration of {slo_class} was rejected: {e}") from None
            (self.results_dir / f"{slo_class}.response.json").write_bytes(answer)
        status = self.api.call("GET", f"/api/v1/slo-classes/{slo_class}")
        (self.results_dir / f"{slo_class}.status.json").write_bytes(status)
        if calibrate:
            print("\n".join(summary(slo_class, json.loads(status))))

    # ------------------------------------------------------------------------ steps

    def steps(self, hook: str) -> None:
        for step in self.experiment.steps(hook):
            self.step(step)

    def step(self, step: Step) -> None:
        match step:
            case Calibrate(slo_class=c, run=rel):
                source = self.repo_root / "docs" / "results" / rel
                try:
                    run = json.loads(source.read_text())
                except (OSError, ValueError) as e:
                    raise RunError(f"cannot read the stored run {source}: {e}") from None
                log(f"calibrating {c} with {rel}")
                try:
                    self.api.call("POST", "/api/v1/calibrations", {**run, "sloClass": c})
                except ApiError as e:
                    raise RunError(f"the calibration of {c} with {rel} was rejected: {e}") from None
            case Verdict(slo_class=c, fields=fields):
                plan_raw = self.api.call("GET", f"/api/v1/slo-classes/{c}/plan")
                (self.results_dir / f"{c}.plan.json").write_bytes(plan_raw)
                run = json.loads((self.results_dir / f"{c}.json").read_text())
                ready = self.kube.class_ready_replicas(c)
                v = verdict(list(fields), run, json.loads(plan_raw), ready)
                _write_json(self.results_dir / f"{c}.verdict.json", v)
                log(f"verdict ({'holds' if holds(v) else 'violated'}): {json.dumps(v)}")
            case DeleteCreated():
                ids = [t.tenant_id for t in self.experiment.tenants]
                for t in ids:
                    self.api.delete_quietly(f"/api/v1/tenants/{t}")
                try:
                    self.kube.wait_tenants_deleted(ids, 90)
                except ClusterError as e:
                    log(f"tenants not deleted within 90 s (classes deleted anyway): {e}")
                for c in self.experiment.classes:
                    self.api.delete_quietly(f"/api/v1/slo-classes/{c.name}")


def _probe(url: str) -> int:
    """The HTTP status of one request to a tenant (0 without an answer)."""
    request = urllib.request.Request(
        url, data=b"{}", method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=2) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as e:
        return int(e.code)
    except (OSError, ValueError):
        return 0


def summary(slo_class: str, status: dict[str, Any]) -> list[str]:
    """The lines printed for a calibrated class: target, cut-offs, fitted model, plan."""
    spec, st = status.get("spec", {}), status.get("status") or {}
    latency = spec.get("latency", {})
    cutoffs = ", ".join(
        f"{c.get('rps')} req/s ({c.get('pods')} pods, {c.get('context')})"
        for c in st.get("cutoffs") or []
    )
    plan = st.get("plan") or {}
    plan_text = (
        (
            f"{plan.get('replicas')} replicas for {plan.get('committedRps')} req/s "
            f"committed ({plan.get('method')})"
        )
        if plan
        else "{}"
    )
    return [
        f"class {slo_class}: target p{latency.get('percentile')} <= {latency.get('targetMs')} ms",
        f"  cut-offs: {cutoffs}",
        f"  model:    {json.dumps(st.get('model') or {}, separators=(',', ':'))}",
        f"  plan:     {plan_text}",
    ]
