"""One experiment run on localkube through Isolato's REST API (docs/gatling.md, "Experiments").

Creates the classes and tenants, runs the definition's steps, waits until every tenant is
served through its class Service, runs the simulation, posts the runs as calibrations, stores
everything and draws the plots.
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import simulation as sim
from . import wire
from .api import ApiError, IsolatoApi
from .cluster import ClusterError, Kubectl, pool_selector
from .collision import differences
from .compare import compare, compare_steps, cutoff_of, lines, rate_step, step_lines
from .definition import (
    LATENCY,
    Calibrate,
    DeleteCreated,
    Experiment,
    Step,
    Verdict,
    first_request,
)
from .hygiene import (
    CpusetPinning,
    Sampler,
    assess,
    pod_cgroup_dirs,
    pod_cpu_per_request,
    step_windows,
    taskset_prefix,
    window,
)
from .instruments import (
    RAMP,
    Options,
    Ramp,
    gatling_connection_args,
    merge_probe,
    openloop_plan_command,
    probe_simulation,
    ramp_of,
    warmup_requests,
)
from .knee import RESOLUTION, bracket, moot_steps, next_probe, p95_ci
from .plan_export import PlanExporter, PlanExportError
from .verdict import holds, verdict

EXPERIMENTS_DIR = Path(__file__).resolve().parent.parent


def run_file(slo_class: str, instrument: str) -> str:
    """Where an instrument's run of a class is stored: <class>.json (Gatling, what the rest of
    the tooling reads), <class>.openloop.json (the referee)."""
    return f"{slo_class}.json" if instrument == "gatling" else f"{slo_class}.{instrument}.json"


REFEREE_RUN_ID_SUFFIX = "-openloop"  # the referee's runId: the run's own, so suffixed


class RunError(Exception):
    """The run cannot go on; the message says why and what to look at."""


def log(message: str) -> None:
    print(f"[experiment] {message}", file=sys.stderr, flush=True)


def write_json(path: Path, value: Any) -> None:
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
    options: Options = field(default_factory=Options)

    @property
    def out_dir(self) -> Path:
        return self.work_dir / "out"

    @functools.cached_property
    def plans(self) -> PlanExporter:
        """The referee's plans, exported by the Gatling module (its classpath built once)."""
        return PlanExporter(self.repo_root, self.work_dir)

    # ------------------------------------------------------------------------ the sequence

    @staticmethod
    def reuse(kind: str, name: str, wanted: dict, live: dict | None, part: str | None) -> None:
        """An object that already exists is measured as it is: only if it is the definition's."""
        if live is None:
            return
        diff = differences(wanted, live.get(part) if part else live)
        if diff:
            raise RunError(
                f"{kind} {name} already exists and differs from the definition "
                f"({'; '.join(diff)}): the run would measure it, not the definition's. Delete it "
                f"(a class after offboarding its tenants) or run where it does not exist"
            )
        log(f"  already exists as defined: {name}")

    def execute(self) -> None:
        e = self.experiment
        self.api.call("GET", "/api/v1/slo-classes")  # reachable, and the token is accepted
        log(
            f"experiment {e.name} (run {self.run_id}): {len(e.classes)} classes, "
            f"{len(e.tenants)} tenants, {e.simulation.name}; results in {self.results_dir}"
        )
        try:
            self.create_and_measure()
        except BaseException:
            self.delete_created_after_failure()
            raise

    def delete_created_after_failure(self) -> None:
        """A definition that deletes what it created when it finishes does so when it fails too
        (an error, Ctrl-C): its classes would otherwise hold the node's CPU for the next run."""
        if not any(isinstance(s, DeleteCreated) for s in self.experiment.steps("finish")):
            return
        log("the run failed: deleting its tenants and classes (the definition's deleteCreated)")
        try:
            self.step(DeleteCreated())
        except Exception as err:  # the failure that got here is the one to report
            log(f"clean-up failed too: {err}")

    def create_and_measure(self) -> None:
        e = self.experiment
        for c in e.classes:
            log(f"creating SLO class {c.name}")
            self.reuse(
                "SLO class",
                c.name,
                c.body()["spec"],
                self.api.create("slo-classes", "name", c.body()),
                "spec",
            )
        self.steps("afterClasses")
        for t in e.tenants:
            log(f"onboarding tenant {t.tenant_id} into {t.slo_class}")
            self.reuse(
                "tenant",
                t.tenant_id,
                t.body(),
                self.api.create("tenants", "tenantId", t.body()),
                None,
            )
        self.steps("afterTenants")
        urls = self.wait_served()
        self.wait_planned_pods()
        try:
            classes = self.measure(urls)
        except KeyboardInterrupt:
            log("interrupted: the load is stopped")
            self.save_partial()
            log(
                f'partial results (complete steps only, "partial": true) kept in {self.results_dir}'
            )
            raise
        for slo_class in classes:
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
            method, path, headers = first_request(self.experiment.simulation.request, t.tenant_id)
            url = f"{urls[t.slo_class]}{path}"
            log(f"waiting until tenant {t.tenant_id} answers {method} {url}")
            last = _probe(url, method, headers)
            while not (200 <= last < 300):
                if time.monotonic() > deadline:
                    raise RunError(
                        f"tenant {t.tenant_id} not served after "
                        f"{self.ready_timeout_s}s (last HTTP {last or 'no answer'})"
                    )
                time.sleep(1)  # a new Service's kube-proxy rule lags Serving by about a second
                last = _probe(url, method, headers)
        return urls

    def wait_planned_pods(self) -> None:
        """Every class's ready pods up to its plan (GET …/plan: a calibration posted before the
        tenants may raise it, and the autoscaler then adds the pods while the tenants already
        answer): both instruments must measure the planned pool, not one on the way to it."""
        deadline = time.monotonic() + self.ready_timeout_s
        for c in self.experiment.classes:
            plan = json.loads(self.api.call("GET", f"/api/v1/slo-classes/{c.name}/plan"))
            want = int(plan["plan"]["replicas"])
            ready = self.kube.class_ready_replicas(c.name)
            if ready < want:
                log(f"waiting until class {c.name} has its plan's {want} pods ready ({ready} now)")
            while ready < want:
                if time.monotonic() > deadline:
                    raise RunError(
                        f"class {c.name} has {ready} of its plan's {want} pods ready after "
                        f"{self.ready_timeout_s}s (kubectl get pods -A -l isolato.dev/class="
                        f"{c.name}: Pending ones do not fit on the node)"
                    )
                time.sleep(1)
                ready = self.kube.class_ready_replicas(c.name)

    # ------------------------------------------------------------------------ measuring

    def measure(self, urls: dict[str, str]) -> list[str]:
        """Runs the definition's load with each instrument, on pinned CPUs unless HYGIENE=off,
        bisects near the knee (ramps, unless REFINE=0), and stores every run with its hygiene
        block in the results directory; the classes measured. Restores the pinning whatever
        happens."""
        e, opts = self.experiment, self.options
        ramp = ramp_of(e.simulation) if e.simulation.name == RAMP else None
        if "openloop" in opts.instruments and not opts.openloop.is_file():
            raise RunError(f"no open-loop generator at {opts.openloop} (make openloop-build)")
        uids = [
            p["metadata"]["uid"]
            for c in e.classes
            for p in self.kube.items("pods", pool_selector(c.name))
        ]
        cgroups = pod_cgroup_dirs(uids)
        log(f"hygiene: {len(cgroups)} pod cgroups of the classes followed for CFS throttling")
        pinning = CpusetPinning() if opts.pin else None
        pin = pinning.apply() if pinning else {"pinned": False, "reason": "HYGIENE=off"}
        if pin["pinned"]:
            log(f"hygiene: generator on CPUs {pin['generatorCpus']}, pods on {pin['podCpus']}")
            for change in pin["changed"]:
                log(f"  cpuset {change}")
        else:
            log(f"hygiene: NOT pinned ({pin['reason']}): every run will be contaminated")
        self.results_dir.mkdir(parents=True, exist_ok=True)
        classes: list[str] = []
        try:
            for instrument in opts.instruments:
                runs = self.measure_with(instrument, urls, ramp, pin, cgroups)
                for cls, run in runs.items():
                    write_json(self.results_dir / run_file(cls, instrument), run)
                    log(f"{instrument} run of {cls}: {run['hygiene']['status']}")
                    for reason in run["hygiene"]["reasons"]:
                        log(f"  - {reason}")
                    if cls not in classes:
                        classes.append(cls)
        finally:
            if pinning:
                for r in pinning.restore():
                    log(f"hygiene: restored cpuset {r}")
        if not classes:
            log("no calibration results were written")
        return classes

    def measure_with(
        self,
        instrument: str,
        urls: dict[str, str],
        ramp: Ramp | None,
        pin: dict[str, Any],
        cgroups: list[Path],
    ) -> dict[str, dict[str, Any]]:
        """One instrument's runs by class, with the knee's probes merged and the hygiene block."""
        work = self.out_dir / instrument
        rates = ramp.rates if ramp else None
        pods_at_start = self.ready_pods()
        runs, windows = self.generate(instrument, urls, ramp, rates, work, pin, cgroups)
        knee: dict[str, Any] | None = None
        target = self.target_ms(ramp.slo_class) if ramp else float(LATENCY["targetMs"])
        if ramp and self.options.refine and ramp.slo_class in runs:
            run, probes = runs[ramp.slo_class], []
            while (b := bracket(run["steps"], target)) and (rate := next_probe(*b)) is not None:
                if len(probes) == self.options.probes:
                    log(f"knee: {self.options.probes} probes done, bracket still {b}")
                    break
                log(f"knee: probing {rate} req/s (last pass {b[0]}, first failure {b[1]})")
                probe_dir = work / f"probe-{len(probes) + 1}"
                found, w = self.generate(instrument, urls, ramp, (rate,), probe_dir, pin, cgroups)
                probe = found.get(ramp.slo_class)
                if probe is None or probe.get("partial"):
                    log(f"knee: the probe at {rate} req/s did not complete; bisection stopped")
                    break
                run = merge_probe(run, probe)
                windows += w
                probes.append(rate)
            runs[ramp.slo_class] = run
            b = bracket(run["steps"], target)
            knee = {
                "probes": probes,
                "bracket": list(b) if b else None,
                "resolutionPct": round(100 * (b[1] - b[0]) / b[0], 1) if b else None,
                "goalPct": 100 * RESOLUTION,
            }
        pods_at_end = self.ready_pods()
        for run in runs.values():
            per_step = ramp is not None or len(windows) == len(run["steps"])
            ramped = ramp is not None and run["sloClass"] == ramp.slo_class
            moot = functools.partial(moot_steps, run["steps"], target) if ramped else None
            verdict = assess(windows, pin, moot=moot)
            steps = [
                {
                    "index": s["index"],
                    "offeredRps": s["offeredRps"],
                    "count": s["total"]["count"],
                    "p95Ci": p95_ci(s["total"]),
                    **(windows[i] if per_step and i < len(windows) else {}),
                }
                for i, s in enumerate(run["steps"])
            ]
            run["hygiene"] = {"instrument": instrument, **verdict, "pinning": pin, "steps": steps}
            # how it sent: the pods' split depends on it
            run["hygiene"]["connections"] = self.options.connections
            cls = run["sloClass"]
            run["hygiene"]["pods"] = {"atStart": pods_at_start[cls], "atEnd": pods_at_end[cls]}
            if instrument == "openloop":
                run["hygiene"]["arrivals"] = self.options.arrivals
            if not per_step:
                run["hygiene"]["run"] = windows[0]
            if knee and run["sloClass"] == ramp.slo_class:  # type: ignore[union-attr]
                run["hygiene"]["knee"] = knee
            if ramped and (cpu := pod_cpu_per_request(steps)):
                run["hygiene"]["podCpu"] = cpu
        return runs

    def target_ms(self, slo_class: str) -> float:
        """The class's p95 target: the knee is bracketed and the instruments compared on it."""
        return next(
            (float(c.target_ms) for c in self.experiment.classes if c.name == slo_class),
            float(LATENCY["targetMs"]),
        )

    def ready_pods(self) -> dict[str, int]:
        """Each class's ready pods now: an autoscaler may change them during a run."""
        return {c.name: self.kube.class_ready_replicas(c.name) for c in self.experiment.classes}

    def generate(
        self,
        instrument: str,
        urls: dict[str, str],
        ramp: Ramp | None,
        rates: tuple[float, ...] | None,
        work: Path,
        pin: dict[str, Any],
        cgroups: list[Path],
    ) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
        """One generator process, sampled: its runs by class and one hygiene window per step
        (one for the whole run when the steps are not known)."""
        e, o = self.experiment, self.options
        work.mkdir(parents=True, exist_ok=True)
        simulation = e.simulation
        if ramp and rates != ramp.rates:
            simulation = probe_simulation(simulation, rates[0])  # type: ignore[index]
        prefix = taskset_prefix(pin["generatorCpus"]) if pin["pinned"] else []
        if instrument == "gatling":
            args = [
                *simulation.args(urls),
                f"-Disolato.runId={self.run_id}",
                f"-Disolato.outputDir={work}",
                *gatling_connection_args(o.connections),
                # no HTML report: its CPU would land in the last step's window, which is laid
                # back from the process's exit, and nothing here reads it
                "-Dgatling.noReports=true",
            ]
            cmd = sim.command(self.repo_root, simulation.name, args)
        else:
            plan = work / "plan" / "plan.json"  # not beside the runs (*.json)
            try:  # on the generator's CPUs, as Gatling's JVM
                self.plans.export(simulation.name, simulation.args(urls), plan, prefix)
            except PlanExportError as err:
                raise RunError(f"the plan of {simulation.name} was not exported: {err}") from None
            run_id = f"{self.run_id}{REFEREE_RUN_ID_SUFFIX}"
            cmd = openloop_plan_command(o.openloop, plan, run_id, work, o.arrivals, o.connections)
        cmd = [*prefix, *cmd]
        sampler = Sampler(lambda: cgroups)
        capture = self.capture(work, pin, cgroups) if ramp else None
        log(f"running {instrument}: {' '.join(cmd[:6])} ...")
        try:
            status = sim.run(cmd, on_start=sampler.start)
        finally:
            end = sampler.stop()
            arrived = capture.stop() if capture else None
        if status != 0:
            raise RunError(f"{instrument} failed with exit status {status} (its output is above)")
        runs = {}
        for f in sorted(work.glob("*.json")):
            run = json.loads(f.read_text())
            runs[run["sloClass"]] = run
        if ramp and rates:
            windows = step_windows(sampler.samples, end, ramp.durations(rates))
            if arrived is not None:
                warmup = warmup_requests(ramp, rates[0])
                even = instrument == "gatling" or o.arrivals == "even"
                for w, s in zip(
                    windows,
                    wire.steps(
                        arrived,
                        warmup,
                        ramp.requests_per_step,
                        rates,
                        len(capture.files) if capture else 1,
                    ),
                    strict=True,
                ):
                    w["wire"] = {**s, "evenArrivals": even}
        elif durations := aligned_durations(list(runs.values())):
            windows = step_windows(sampler.samples, end, durations)
        else:
            windows = [window(sampler.samples[0], sampler.samples[-1])]
        return runs, windows

    def capture(self, work: Path, pin: dict[str, Any], cgroups: list[Path]) -> wire.Capture | None:
        """The arrivals at the class's pods during one generator run (WIRE=on); None when off
        or when it cannot start (not root, no pod process): the run is then judged without it."""
        if not self.options.wire:
            return None
        if self.experiment.simulation.request:
            log("wire: the capture knows saas-bench's request line only; judged without it")
            return None
        prefix = taskset_prefix(pin["generatorCpus"]) if pin["pinned"] else []
        try:
            return wire.Capture(wire.pod_pids(cgroups), work, prefix)
        except OSError as e:
            log(f"wire: no capture at the pods ({e}); the run is judged without it")
            return None

    def save_partial(self) -> None:
        """After an interrupt: the complete steps each generator wrote ("partial": true)."""
        self.results_dir.mkdir(parents=True, exist_ok=True)
        for instrument in ("gatling", "openloop"):
            for f in sorted((self.out_dir / instrument).glob("*.json")):
                cls = json.loads(f.read_text())["sloClass"]
                shutil.copy2(f, self.results_dir / run_file(cls, instrument))

    def report(self, slo_class: str) -> None:
        """Posts the class's runs (the referee's first; not a contaminated one unless
        CONTAMINATED=post; none if the definition says calibrate: false), stores and prints the
        class's status and, with both instruments, their comparison."""
        cutoffs: dict[str, float | None] = {}
        held_to: dict[str, float | None] = {}
        runs: dict[str, dict[str, Any]] = {}
        for instrument in self.options.instruments:
            f = self.results_dir / run_file(slo_class, instrument)
            if not f.exists():
                continue
            runs[instrument] = run = json.loads(f.read_text())
            cutoffs[instrument] = held_to[instrument] = None
            answer_file = f.with_name(f.name.removesuffix(".json") + ".response.json")
            answer_file.unlink(missing_ok=True)  # an earlier run's answer is not this run's
            if not self.experiment.calibrate:
                continue
            hygiene = run.get("hygiene", {})
            if hygiene.get("status") == "contaminated" and not self.options.post_contaminated:
                log(f"NOT posting {f.name}: contaminated (CONTAMINATED=post posts it anyway)")
                continue
            log(f"posting {f.name} to /api/v1/calibrations")
            try:
                answer = self.api.call("POST", "/api/v1/calibrations", run)
            except ApiError as e:
                raise RunError(f"the calibration {f.name} was rejected: {e}") from None
            answer_file.write_bytes(answer)
            cutoffs[instrument], held_to[instrument] = cutoff_of(json.loads(answer))
        status = self.api.call("GET", f"/api/v1/slo-classes/{slo_class}")
        (self.results_dir / f"{slo_class}.status.json").write_bytes(status)
        if self.experiment.calibrate:
            print("\n".join(summary(slo_class, json.loads(status))))
        if len(runs) == 2:
            g, o = runs["gatling"], runs["openloop"]
            if self.experiment.calibrate:
                sim = self.experiment.simulation
                step = ramp_of(sim).step if sim.name == RAMP else rate_step(g)
                c = compare(
                    g,
                    cutoffs["gatling"],
                    o,
                    cutoffs["openloop"],
                    step,
                    held_to=(held_to["gatling"], held_to["openloop"]),
                )
                text = lines(c)
            else:
                c = compare_steps(g, o, self.target_ms(slo_class))
                text = step_lines(c)
            write_json(self.results_dir / f"{slo_class}.comparison.json", c)
            print("\n".join(text))

    # ------------------------------------------------------------------------ steps

    def steps(self, hook: str) -> None:
        for step in self.experiment.steps(hook):
            self.step(step)

    def step(self, step: Step) -> None:
        match step:
            case Calibrate(slo_class=c, run=rel):
                source = self.repo_root / "results" / rel
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
                write_json(self.results_dir / f"{c}.verdict.json", v)
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


def aligned_durations(runs: list[dict[str, Any]]) -> list[float] | None:
    """The steps' planned seconds when every class's run has the same steps, back to back
    (CoLocatedRamp, TenantMix and AggressiveTenant step their classes together): the hygiene
    windows are then per step, as for ramps. None when they differ or a run is partial: one
    window for the whole run."""
    lists = [[s["durationSeconds"] for s in r["steps"]] for r in runs if not r.get("partial")]
    if len(lists) != len(runs) or not lists or any(d != lists[0] for d in lists):
        return None
    return lists[0]


def _probe(url: str, method: str = "POST", headers: Mapping[str, str] | None = None) -> int:
    """The HTTP status of one request to a tenant (0 without an answer)."""
    body = None if method in ("GET", "HEAD") else b"{}"
    request = urllib.request.Request(
        url,
        data=body,
        method=method,
        headers={"Content-Type": "application/json", **(headers or {})},
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
