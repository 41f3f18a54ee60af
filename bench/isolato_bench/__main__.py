"""isolato-bench: Isolato's benchmarks on localkube, one command with a subcommand each.

A measuring subcommand runs its measurement through a small shell helper in bench/sh/ (all a
helper does is start processes: localkube, kubectl, the controller, perf, the load generator,
and write down what they measured), then does the rest here: raw results under
results/<experiment>/, plots under docs/results/<experiment>/ (runner.places), and its section
of docs/benchmarks-log.md between markers (runner.sections). The other subcommands render or plot
stored results. Run it as bench/isolato-bench (the experiments' venv, with the experiment
runner's helpers importable) or through `make bench-*` (controller/part.mk, helm/part.mk).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from runner.places import BENCHMARK_LOG, REPO_ROOT, RESULTS, plot_dir
from runner.sections import host_line, load_average, machine, write_section

from . import onboarding_stages, scale_report
from . import start_ab as start_ab_report
from .faults import chaos, run_modes
from .profile import jfr_hot

SH = REPO_ROOT / "bench" / "sh"
EXPERIMENTS = REPO_ROOT / "gatling" / "experiments"
PIPELINE = RESULTS / "pipeline"


def run_sh(
    script: str, *args: object, env: dict[str, str] | None = None, timeout_s: int = 0
) -> None:
    """Runs bench/sh/SCRIPT; its failure is this command's (exit with its status). With timeout_s
    it gets SIGTERM after that many seconds (its EXIT trap cleans up; exit 124)."""
    bound = ["timeout", "-s", "TERM", str(timeout_s)] if timeout_s else []
    rc = subprocess.call(
        [*bound, str(SH / script), *map(str, args)],
        env=os.environ | {"PY": sys.executable} | (env or {}),
    )
    if rc:
        raise SystemExit(rc)


def pinned(script: str, env: dict[str, str]) -> None:
    """Runs bench/sh/SCRIPT with the pods' CPUs apart from the load generator's (pinned.py)."""
    rc = subprocess.call(
        [sys.executable, str(EXPERIMENTS / "pinned.py"), str(SH / script)],
        env=os.environ | {"PY": sys.executable} | env,
    )
    if rc:
        raise SystemExit(rc)


def emit(section: str, key: str, page: Path = BENCHMARK_LOG) -> None:
    print(section)
    write_section(page, section, key)
    print(f"[isolato-bench] section '{key}' written into {page}", file=sys.stderr)


# --- measurements ------------------------------------------------------------------------------


def start_ab(a: argparse.Namespace) -> None:
    out_dir = RESULTS / "start-ab" / datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    out_dir.mkdir(parents=True)
    # the raw steps (≈ 70 kB a start) stay out of results/: their phases and beans are kept
    steps_dir = Path(tempfile.mkdtemp(prefix="start-ab-steps."))
    env = {"PY": sys.executable, "REPEATS": str(a.repeats), "STEPS_DIR": str(steps_dir)}
    if a.variants:
        env["VARIANTS"] = a.variants
    if a.image:
        env["IMAGE_TAG"] = a.image
    if a.base_jar:
        env["BASE_JAR"] = str(a.base_jar.resolve())
        env["BASE_VARIANTS"] = a.base_variants
    out = subprocess.run(
        [str(SH / "start-ab.sh")],
        env=os.environ | env,
        stdout=subprocess.PIPE,
        text=True,
        check=True,
    ).stdout
    print(out, end="")
    (out_dir / "starts.tsv").write_text(out)
    steps = start_ab_report.read_steps(steps_dir)
    shutil.rmtree(steps_dir)
    (out_dir / "steps.json").write_text(json.dumps(start_ab_report.condensed(steps), indent=1))
    base = (
        f" `{a.base_variants}@base`: the same start of {a.base_jar.name}, the jar before the "
        "change, in the same run."
        if a.base_jar
        else ""
    )
    emit(
        f"### Controller start: A/B of the start variants — {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
        f" — {machine()}, load average at the end {load_average()}\n\n"
        "The jar extracted as the image holds it, with the chart's JVM options and settings (CRDs "
        "installed by the chart), started on the host against a bare kube-apiserver + etcd, the "
        f"variants alternated, {a.repeats} starts each (bench/sh/start-ab.sh).{base} Raw results "
        f"in {out_dir.relative_to(REPO_ROOT)}/.\n\n"
        + "\n".join(start_ab_report.main(out.splitlines()))
        + "\n\nWhere the time goes (the Spring startup steps each start wrote, "
        "-Disolato.startup-steps; JVM start: the JVM's own start time, after the launcher):\n\n"
        + "\n".join(start_ab_report.steps_table(steps)),
        a.section,
    )


def scale(a: argparse.Namespace) -> None:
    opts = os.environ.get("ISOLATO_JAVA_OPTS", scale_report.JAVA_OPTS)
    if a.check:
        # `make test-scale-e2e`: the reference shape once, correctness only (scale.py asserts
        # every POST created, every class counting its tenants, the probe's tenants Serving)
        with tempfile.TemporaryDirectory() as out:
            env = {"SHAPES": a.reference, "OUT": out, "ISOLATO_JAVA_OPTS": opts}
            run_sh("scale.sh", env=env)
            r = json.loads((Path(out) / f"{a.reference.replace(':', 'x')}.json").read_text())
        assert r["table_push_status"] == 200, r["table_push_status"]
        print(
            f"[scale-check] {r['tenants']} tenants in {r['classes']} classes: all created and "
            f"counted, the probe's served; a {r['table_bytes']} B table taken by gate → saas-bench"
        )
        return
    out = RESULTS / "scale" / datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    shapes = [a.reference, f"{a.tenants}:{a.classes}"]
    opts += " " + scale_report.TRACKING
    run_sh("scale.sh", env={"SHAPES": " ".join(shapes), "OUT": str(out), "ISOLATO_JAVA_OPTS": opts})
    results = [json.loads((out / f"{s.replace(':', 'x')}.json").read_text()) for s in shapes]
    emit(
        f"### Scale: {a.tenants:,} tenants in {a.classes} classes"
        f" — {datetime.now(UTC):%Y-%m-%d %H:%M} UTC — {machine()}, load average at the end"
        f" {load_average()}\n\n"
        "`bench/isolato-bench scale` (bench/sh/scale.sh): per shape a fresh bare kube-apiserver + "
        "etcd on this host (no kubelet: pools get no pods), the controller jar with "
        f"`{opts}`, and for one class, the probe, a Deployment reported ready and one endpoint: "
        "a real isolato-gate in front of a real saas-bench on this host, so its tenants reach "
        "Serving through a real table push. The first shape is the reference of the ratios; raw "
        f"results in results/scale/{out.name}/.\n\n" + "\n".join(scale_report.report(results)),
        "scale",
    )


def burst_check(a: argparse.Namespace) -> None:
    run_sh("burst-check.sh")


def onboarding_stages_run(a: argparse.Namespace) -> None:
    argv = [*(a.runs), *(["--svg", str(a.svg)] if a.svg else [])]
    text = onboarding_stages.main(argv)
    if a.log:
        # dated by the runs' own marks (the first and the last onboarding), not by this summary
        posts = [
            m["post"]
            for r in a.runs
            for m in json.loads(Path(r.partition("=")[2], "sequential.json").read_text())
        ]
        first, last = (datetime.fromtimestamp(t, UTC) for t in (min(posts), max(posts)))
        emit(
            f"### Onboarding: where the time goes — {first:%Y-%m-%d %H:%M} to {last:%H:%M} UTC — "
            f"{machine()}\n\nThe sequential onboardings of `isolato-bench onboarding` run with "
            "PROFILE=DIR, split into the controller's steps (`isolato-bench onboarding-stages`, "
            "[onboarding-profile.md](onboarding-profile.md)); the runs named below, in order, "
            "on the test cluster (a fresh one per session).\n" + "\n".join(text),
            "onboarding-stages",
        )


def onboarding(a: argparse.Namespace) -> None:
    # BENCHMARK_LOG set: a trial run written elsewhere than the docs
    log = os.environ.get("BENCHMARK_LOG", str(BENCHMARK_LOG))
    run_sh("onboarding.sh", env={"BENCHMARK_LOG": log})


def reaction_time(a: argparse.Namespace) -> None:
    import reaction_time as rt  # gatling/experiments: the analysis shared with the runner's tests

    env = {"OUT": str(a.out), "HOLD": str(a.hold)}
    if a.variants:
        env["VARIANTS"] = " ".join(a.variants)
    pinned("reaction-time.sh", env)
    raise SystemExit(rt.main([str(a.out), str(BENCHMARK_LOG)]))


def reaction_time_repeats(a: argparse.Namespace) -> None:
    import reaction_time as rt

    raise SystemExit(rt.main_repeats([str(BENCHMARK_LOG), *map(str, a.dirs)]))


def filler(a: argparse.Namespace) -> None:
    import filler as fl  # gatling/experiments

    pinned("filler.sh", {"OUT": str(a.out), "REPS": str(a.reps), "SECONDS_PER_RUN": str(a.seconds)})
    raise SystemExit(fl.main([str(a.out), str(BENCHMARK_LOG)]))


def chaos_run(a: argparse.Namespace, extra: list[str]) -> None:
    run_sh("chaos.sh", *extra)


def run_modes_run(a: argparse.Namespace, extra: list[str]) -> None:
    run_modes.main(extra)


def tune(a: argparse.Namespace, extra: list[str]) -> None:
    run_sh("tune.sh", *extra)


def cpu_profile(a: argparse.Namespace) -> None:
    from . import cpu_profile as cp

    with tempfile.TemporaryDirectory(prefix="isolato-cpu-profile-") as work:
        run_sh("cpu-profile.sh", a.pods, a.repeats, work)
        runtime = (Path(work) / "runtime").read_text().strip()
        out = (a.out_dir or PIPELINE) / f"cpu-profile-1x{a.pods}.json"
        section = cp.main(f"{machine()}, {runtime}", a.pods, Path(work), out)
    if a.out_dir:  # a profile of a comparison (runtime-ab): its section is the comparison's
        print(section)
    else:
        emit(section, "cpu-profile")


def runtime_ab(a: argparse.Namespace) -> None:
    from . import runtime_ab as ab

    with tempfile.TemporaryDirectory(prefix="isolato-runtime-ab-") as work:
        run_sh("runtime-ab.sh", a.pods, a.repeats, a.rounds, a.limited, env={"WORK_DIR": work})
        rounds = [
            (label, int(n), Path(d))
            for label, n, d in (
                line.split("\t") for line in (Path(work) / "profiles").read_text().splitlines()
            )
        ]
        out = PIPELINE / f"runtime-ab-1x{a.pods}.json"
        emit(ab.main(machine(), a.pods, a.repeats, a.limited, out, rounds), "runtime-ab")


def burst(work: str) -> float:
    """The controller manager's client burst the helper read from localkube's config (30, the
    default, when localkube's config does not set it)."""
    return float((Path(work) / "burst").read_text().strip() or "30")


def token_bucket(a: argparse.Namespace) -> None:
    import json

    from . import steps_report

    out = PIPELINE / f"token-bucket-{a.pods}.json"
    load0 = load_average()
    with tempfile.TemporaryDirectory(prefix="isolato-token-bucket-") as work:
        run_sh("token-bucket.sh", a.pods, a.qps, a.repeats, out, env={"WORK_DIR": work})
        b = burst(work)
    command = (
        f"`isolato-bench token-bucket {a.pods} {a.qps} {a.repeats}`: `make tune` from"
        " localkube's defaults, at most one change."
    )
    analysis = json.loads(out.read_text())
    section = steps_report.report(
        analysis, machine(), load0, load_average(), float(a.qps), b, command
    )
    emit(section, "token-bucket")


def kwok_tune(a: argparse.Namespace) -> None:
    import json

    from . import kwok_report, steps_report

    out = a.out or PIPELINE / "kwok-16x100.json"
    load0 = load_average()
    with tempfile.TemporaryDirectory(prefix="isolato-kwok-tune-") as work:
        args = (a.nodes, a.pods, a.max_changes, a.repeats, out)
        run_sh("kwok-tune.sh", *args, env={"WORK_DIR": work})
        b = burst(work)
    load1, m = load_average(), machine()
    analysis = json.loads(out.read_text())
    command = (
        f"`isolato-bench kwok-tune {a.nodes} {a.pods} {a.max_changes} {a.repeats}`: the loop"
        f" from Kubernetes' defaults on {a.nodes} KWOK fake nodes (the previous section)."
    )
    section = (
        kwok_report.report(analysis, m, load0, load1)
        + "\n\n"
        + steps_report.report(analysis, m, load0, load1, 20.0, b, command)
    )
    emit(section, "kwok-tune")


def path_tune(a: argparse.Namespace) -> None:
    import json

    from . import path_tune_report, pipeline_plot

    files = [
        PIPELINE / f"path-tenants-{a.tenants}.json",
        PIPELINE / "path-scale-9.json",
        PIPELINE / "path-class-9.json",
    ]
    load0 = load_average()
    run_sh("path-tune.sh", a.tenants, a.max_changes, a.repeats, *files)
    analyses = [json.loads(f.read_text()) for f in files]
    emit(path_tune_report.report(analyses, machine(), load0, load_average()), "path-tune")
    pipeline_plot.main([str(f) for f in files])


def pipeline(a: argparse.Namespace) -> None:
    from . import pipeline_report

    kwok = os.environ.get("KWOK_NODES", "")
    load0 = load_average()
    with tempfile.TemporaryDirectory(prefix="isolato-pipeline-") as work:
        run_sh("pipeline-bench.sh", a.workloads, a.pods, a.repeats, *a.keys, env={"WORK_DIR": work})
        section = pipeline_report.report(
            Path(work), a.workloads, a.pods, a.repeats, a.keys, machine(), load0, load_average(),
            kwok,
        )  # fmt: skip
    emit(section, f"pipeline-{a.workloads}x{a.pods}" + (f"-kwok{kwok}" if kwok else ""))


def tenants(a: argparse.Namespace) -> None:
    from . import tenants_report

    load0 = load_average()
    with tempfile.TemporaryDirectory(prefix="isolato-tenants-") as work:
        run_sh("tenants-bench.sh", a.tenants, a.repeats, *a.keys, env={"WORK_DIR": work})
        section = tenants_report.report(
            Path(work), a.tenants, a.repeats, a.keys, machine(), load0, load_average()
        )
    emit(section, f"tenants-{a.tenants}")


def slo_engine(a: argparse.Namespace) -> None:
    from runner.sections import cpu_model

    from . import slo_report

    jmh = REPO_ROOT / "controller/target/slo-bench/jmh.json"
    if not a.summary_only:
        run_sh("slo-bench.sh", jmh.parent)
    version = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr
    nproc = os.cpu_count() or 1
    section, ok = slo_report.report(
        jmh, os.uname().nodename, nproc, cpu_model(), version.splitlines()[0], load_average()
    )
    emit(section, "slo-engine")
    print(f"[slo-bench] goals {'met' if ok else 'MISSED'}", file=sys.stderr)
    raise SystemExit(0 if ok else 1)


def image(a: argparse.Namespace) -> None:
    from . import image_report

    with tempfile.TemporaryDirectory(prefix="isolato-image-") as work:
        run_sh("image.sh", env={"WORK_DIR": work, "RUNS": str(a.runs)})
        section = image_report.report(Path(work), REPO_ROOT, a.runs, os.cpu_count() or 1)
    emit(section, "controller-image")


def gate_overhead(a: argparse.Namespace) -> None:
    import json

    from . import gate_overhead as go

    meta = a.out / "meta.json"
    if not a.report_only:
        load0 = load_average()
        runs = []
        for units in go.APP_UNITS:
            out = a.out / f"cpu{units}"
            out.mkdir(parents=True, exist_ok=True)
            (out / "cpu.tsv").unlink(missing_ok=True)
            env = {"APP_UNITS": str(units)}
            print(f"[gate-overhead] app at profile cpu {units}: ramp", flush=True)
            run_sh("gate-overhead.sh", "cutoff", out, env=env)
            cut = go.cutoff(json.loads((out / "ramp.json").read_text()))
            if not cut:
                raise SystemExit(f"[gate-overhead] the direct app (cpu {units}) served no step")
            rates = [max(1, round(cut * s / 100)) for s in go.SHARES]
            for repeat in range(1, a.repeats + 1):
                print(f"[gate-overhead] cpu {units}: repeat {repeat}/{a.repeats}", flush=True)
                run_sh("gate-overhead.sh", "run", out, ",".join(map(str, rates)), repeat, env=env)
            runs.append({"units": units, "cut": cut, "rates": rates})
        m = {"runs": runs, "repeats": a.repeats, "machine": machine()}
        meta.write_text(json.dumps(m | {"load": [load0, load_average()]}))
    m = json.loads(meta.read_text())
    measured = [
        go.Measured(r["units"], a.out / f"cpu{r['units']}", r["cut"], r["rates"]) for r in m["runs"]
    ]
    section = go.report(measured, m["repeats"], m["machine"], *m["load"])
    emit(section, "gate-overhead")


def gate_share(a: argparse.Namespace) -> None:
    import json

    from . import gate_share as gs

    out = RESULTS / "httpbin-alone" / "gate-share.json"
    load0 = load_average()
    if not a.report_only:
        run_sh("gate-share.sh")
    load1 = load_average()
    if a.report_only:  # the stored run's load was not kept with it
        load0 = load1 = "not recorded"
    data = json.loads(out.read_text())
    emit(gs.report(data, machine(), load0, load1), "gate-share")


def coloc(a: argparse.Namespace) -> None:
    from . import coloc as co

    if not a.report_only:
        env = {"OUT": str(a.out), "REPS": str(a.reps), "SECONDS_PER_RUN": str(a.seconds)}
        run_sh("coloc.sh", env=env)
    runs, meta = co.read(a.out)
    (a.out / "summary.json").write_text(json.dumps(co.summary(runs), indent=2) + "\n")
    png = co.plot(a.out, plot_dir(a.out), runs)
    print(f"[coloc] plot {png}", file=sys.stderr)
    out = a.out.resolve()
    rel = out.relative_to(REPO_ROOT) if out.is_relative_to(REPO_ROOT) else out
    emit(co.report(runs, meta, co.when(meta, host_line(), os.cpu_count() or 1), str(rel)), co.KEY)


STEADY_OBSERVE_S = (600, 1200)  # a steady run's default and longest observed span


def incontext_check(a: argparse.Namespace) -> None:
    """`make experiment` from the host (both generators, unpinned), then the in-context
    calibration of the same class; the three cut-offs side by side (incontext_check.py)."""
    import time

    from runner.api import IsolatoApi
    from runner.settings import api_settings

    from . import incontext_check as ic

    base = RESULTS / "incontext-check"
    if not a.report_only:
        out = base / datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        out.mkdir(parents=True)
        # unpinned runs count as contaminated (the generator shares the pods' CPUs): posted
        # anyway, since sharing the node is the context this check is about
        env = {"INSTRUMENT": "both", "HYGIENE": "off", "CONTAMINATED": "post"}
        env["RESULTS_DIR"] = str(out / "host")
        print(f"[incontext-check] make experiment NAME={a.definition}, unpinned", file=sys.stderr)
        rc = subprocess.call(
            [str(EXPERIMENTS / "runner.sh"), "run", a.definition], env=os.environ | env
        )
        if rc:
            raise SystemExit(rc)
        s = api_settings(os.environ)
        api = IsolatoApi(s.url, s.token)
        path = f"/api/v1/slo-classes/{a.slo_class}/calibrations"
        cal = api.json("POST", path)
        print(f"[incontext-check] in-context calibration {cal['id']} started", file=sys.stderr)
        deadline = time.monotonic() + a.timeout
        while cal.get("phase") not in ("Succeeded", "Failed"):
            if time.monotonic() > deadline:
                raise SystemExit(f"[incontext-check] calibration {cal['id']} not done in time")
            time.sleep(2)  # the calibration's own pace (a Job); the API offers no watch of it
            cal = api.json("GET", f"{path}/{cal['id']}")
            phase, message = cal.get("phase"), cal.get("message", "")
            print(f"[incontext-check] {phase}: {message}", file=sys.stderr)
        (out / "incontext.json").write_text(json.dumps(cal, indent=2) + "\n")
        if cal["phase"] != "Succeeded":
            raise SystemExit(f"[incontext-check] calibration failed: {cal.get('message')}")
    # one section per class: a run of another definition does not replace this one's
    runs = sorted(
        d
        for d in base.glob("*/")
        if (d / "incontext.json").exists() and (d / "host" / f"{a.slo_class}.json").exists()
    )
    if not runs:
        raise SystemExit(f"[incontext-check] no run of class {a.slo_class} under {base}")
    check = ic.load(runs[-1], a.slo_class)
    emit(ic.report(check, host_line()), f"incontext-check-{a.slo_class}")


def neighbour(a: argparse.Namespace) -> None:
    from . import neighbour as nb

    steady = a.kind == "none"  # no neighbour: the false-alarm run, loop on only
    observe = a.observe or (STEADY_OBSERVE_S[0] if steady else 90)
    if steady and observe > STEADY_OBSERVE_S[1]:
        raise SystemExit(f"[neighbour] --observe {observe}: at most {STEADY_OBSERVE_S[1]} s")
    base = RESULTS / f"neighbour-{a.kind}"
    if not a.report_only:
        out = base / datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        env = {"OUT": str(out), "KIND": a.kind, "LEAD": str(a.lead), "OBSERVE": str(observe)}
        env |= {"NEIGHBOUR_CPU": a.neighbour_cpu, "NEIGHBOUR_THREADS": str(a.threads)}
        phases = ["on"] if steady else list(nb.PHASES)
        env["PHASES"] = " ".join(phases)
        # bounded: the calibration (≤ 150 s), each phase's LEAD + OBSERVE and its set-up
        run_sh("neighbour.sh", env=env, timeout_s=240 + len(phases) * (a.lead + observe + 120))
    runs = sorted(
        d for d in base.glob("*/") if any((d / p / "meta.json").exists() for p in nb.PHASES)
    )
    if not runs:
        raise SystemExit(f"[neighbour] no run under {base}")
    if steady:
        return steady_report(runs[-1])
    phases = [(d.name, nb.read_run(d)) for d in runs]
    plots = []
    for d in runs:
        png = plot_dir(d) / f"neighbour-{a.kind}.png"
        nb.plot(d, png)
        plots.append(str(png.relative_to(BENCHMARK_LOG.parent)))
    meta = json.loads(
        next(
            (runs[-1] / p / "meta.json") for p in nb.PHASES if (runs[-1] / p / "meta.json").exists()
        ).read_text()
    )
    unit = runs[-1] / "cpu-unit.jsonl"
    costs = nb.unit_costs(unit.read_text()) if unit.exists() else None
    # a run's NOTE.md: what the figures alone do not say (a changed design, a loaded machine)
    notes = {d.name: (d / "NOTE.md").read_text() for d in runs if (d / "NOTE.md").exists()}
    emit(nb.section(phases, meta, host_line(), plots, costs, notes), f"neighbour-{a.kind}")
    print("\n".join(nb.verdict(phases)), file=sys.stderr)


def steady_report(run: Path) -> None:
    """The steady run's false-alarm figures, plot and section (isolato_bench/steady.py)."""
    from . import neighbour as nb
    from . import steady as st

    d = run / "on"
    meta = json.loads((d / "meta.json").read_text())
    samples, failed = nb.parse_samples((d / "samples.csv").read_text())
    figures = st.analyse(
        meta,
        samples,
        failed,
        nb.parse_class((d / "class.txt").read_text()),
        nb.parse_replicas((d / "replicas.txt").read_text()),
        nb.neighbour_start(meta),
    )
    png = plot_dir(run) / f"neighbour-{st.KIND}.png"
    nb.plot(run, png)
    note = (run / "NOTE.md").read_text() if (run / "NOTE.md").exists() else ""
    plot = str(png.relative_to(BENCHMARK_LOG.parent))
    emit(st.section(run.name, figures, meta, host_line(), plot, note), f"neighbour-{st.KIND}")
    print("\n".join(st.lines(figures)), file=sys.stderr)


# --- stored results --------------------------------------------------------------------------


def pipeline_plot(a: argparse.Namespace) -> None:
    from . import pipeline_plot as pp

    pp.main([*map(str, a.analyses), *(["--paper-fig8"] if a.paper_fig8 else [])])


def pipeline_winners(a: argparse.Namespace) -> None:
    import json

    from .pipeline_winners import winners

    for k, v in winners(json.loads(a.analysis.read_text())).items():
        print(f"{k}={v}")


def section(a: argparse.Namespace) -> None:
    """The section on stdin into the page (for benchmarks written in shell elsewhere)."""
    write_section(a.page, sys.stdin.read(), a.key)


def jfr_hot_run(a: argparse.Namespace) -> None:
    raise SystemExit(jfr_hot.main([a.file, "--top", str(a.top), "--prefix", a.prefix]))


# --- the command line ---------------------------------------------------------------------------

Command = Callable[[argparse.Namespace], None]
# subcommands whose unknown options go to the program they run (its own options)
PASSTHROUGH = {"chaos": chaos_run, "run-modes": run_modes_run, "tune": tune}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="isolato-bench",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")

    def add(name: str, run: Command | None, text: str, **kw) -> argparse.ArgumentParser:
        s = sub.add_parser(name, help=text, description=text, **kw)
        s.set_defaults(run=run)
        return s

    add(
        "onboarding",
        onboarding,
        "onboarding latency, a 100- and a 1,000-tenant burst (bench-controller; PROFILE=DIR: "
        "JFR and step logs)",
    )
    add("burst-check", burst_check, "1,000 tenants at concurrency 50, exact and all Serving")
    s = add("scale", scale, "controller RSS, heap and table size at N tenants in M classes")
    s.add_argument("--tenants", type=int, default=10000)
    s.add_argument("--classes", type=int, default=200)
    s.add_argument("--reference", default="1000:20", help="TENANTS:CLASSES measured first")
    s.add_argument("--check", action="store_true", help="the reference shape only, asserted")
    s = add("start-ab", start_ab, "controller start: AppCDS, Spring AOT, C1 variants, alternated")
    s.add_argument("--repeats", type=int, default=3)
    s.add_argument("--variants", help="a space-separated subset (default: all)")
    s.add_argument("--base-jar", type=Path, help="the jar before a change: its start beside")
    s.add_argument("--base-variants", default="cds-aot-c1", help="the base jar's variants")
    s.add_argument("--image", help="a controller image (podman) started beside: variant 'image'")
    s.add_argument("--section", default="controller-start", help="the benchmark log's section")
    s = add(
        "onboarding-stages",
        onboarding_stages_run,
        onboarding_stages.__doc__.splitlines()[0],
        parents=[onboarding_stages.parser(False)],
    )
    s.add_argument("--log", action="store_true", help="write the tables into the benchmark log")
    s = add("reaction-time", reaction_time, "reaction time to a load step, four autoscalers")
    s.add_argument("--out", type=Path, default=RESULTS / "reaction-time")
    s.add_argument("--variants", nargs="*", help="hpa keda-default keda-tuned direct (all)")
    s.add_argument("--hold", type=int, default=75, help="seconds the step is held")
    s = add("reaction-time-repeats", reaction_time_repeats, "the reaction-time runs side by side")
    s.add_argument("dirs", type=Path, nargs="+", help="result directories of reaction-time runs")
    s = add("filler", filler, "vertical headroom: class p95 and CPU with and without the filler")
    s.add_argument("--out", type=Path, default=RESULTS / "filler")
    s.add_argument("--reps", type=int, default=3)
    s.add_argument("--seconds", type=int, default=20, help="seconds per run")
    add(
        "chaos",
        None,
        "control-plane faults survived by the Helm-installed controller (make chaos)",
        parents=[chaos.parser(add_help=False)],
    )
    add(
        "run-modes",
        None,
        "make run host vs MODE=cluster: time to ready and to a first served tenant",
        parents=[run_modes.parser(add_help=False)],
    )
    add("tune", None, "the deploy-pipeline tuning loop (options: TuneMain's, docs/pipeline.md)")
    s = add("cpu-profile", cpu_profile, "where the CPU goes while pause pods start (perf)")
    s.add_argument("pods", type=int, nargs="?", default=100)
    s.add_argument("repeats", type=int, nargs="?", default=3)
    s.add_argument("out_dir", type=Path, nargs="?", help="write there, no section in the log")
    s = add("runtime-ab", runtime_ab, "Debian's runc vs localkube's pinned build, alternating")
    s.add_argument("pods", type=int, nargs="?", default=100)
    s.add_argument("repeats", type=int, nargs="?", default=3)
    s.add_argument("rounds", type=int, nargs="?", default=2)
    s.add_argument("limited", type=int, nargs="?", default=5)
    s = add("token-bucket", token_bucket, "the loop from the controller manager's QPS 20")
    s.add_argument("pods", type=int, nargs="?", default=100)
    s.add_argument("qps", type=int, nargs="?", default=20)
    s.add_argument("repeats", type=int, nargs="?", default=3)
    s = add("kwok-tune", kwok_tune, "the paper's Fig. 8 shape on KWOK fake nodes, tuned")
    s.add_argument("nodes", type=int, nargs="?", default=16)
    s.add_argument("pods", type=int, nargs="?", default=1600)
    s.add_argument("max_changes", type=int, nargs="?", default=3)
    s.add_argument("repeats", type=int, nargs="?", default=3)
    s.add_argument("out", type=Path, nargs="?")
    s = add("path-tune", path_tune, "the tuning loop on Isolato's own paths")
    s.add_argument("tenants", type=int, nargs="?", default=50)
    s.add_argument("max_changes", type=int, nargs="?", default=3)
    s.add_argument("repeats", type=int, nargs="?", default=3)
    s = add("pipeline", pipeline, "default vs tuned localkube for J × P pods (KWOK_NODES=N)")
    s.add_argument("workloads", type=int)
    s.add_argument("pods", type=int)
    s.add_argument("repeats", type=int)
    s.add_argument("keys", nargs="+", metavar="KEY=DEFAULT:TUNED")
    s = add("tenants", tenants, "Isolato's own paths default vs tuned (PROFILE=DIR: JFR)")
    s.add_argument("tenants", type=int)
    s.add_argument("repeats", type=int)
    s.add_argument("keys", nargs="+", metavar="KEY=DEFAULT:TUNED")
    s = add("slo-engine", slo_engine, "the SLO engine's JMH benchmarks against their goals")
    s.add_argument("--summary-only", action="store_true", help="re-summarise the last jmh.json")
    s = add("image", image, "controller image size, start-to-ready, leader hand-over")
    s.add_argument("--runs", type=int, default=3)
    s = add("gate-overhead", gate_overhead, "isolato-gate vs direct vs HAProxy 2.6, open loop")
    s.add_argument("--repeats", type=int, default=2)
    s.add_argument("--out", type=Path, default=RESULTS / "gate-overhead")
    s.add_argument("--report-only", action="store_true", help="re-render the stored run")
    s = add("gate-share", gate_share, "the gate's CPU beside the app's at the class's cut-off")
    s.add_argument("--report-only", action="store_true", help="re-render the stored run")
    s = add("coloc", coloc, "IO-sensitive class p95 beside an IO-heavy one, guard on vs off")
    s.add_argument("--reps", type=int, default=2, help="repetitions of the on/off pair")
    s.add_argument("--seconds", type=int, default=30, help="seconds of each run beside the load")
    s.add_argument("--out", type=Path, default=RESULTS / "coloc")
    s.add_argument("--report-only", action="store_true", help="re-render the stored run")
    s = add("neighbour", neighbour, "noisy neighbour: gold's p95 with the verification loop off/on")
    s.add_argument(
        "--kind",
        choices=["cpu", "io", "mem", "none"],
        default="cpu",
        help="the neighbour's load; none: a steady run, the false-alarm rate (loop on only)",
    )
    s.add_argument("--lead", type=int, default=45, help="seconds of load before the neighbour")
    s.add_argument(
        "--observe", type=int, help="seconds of load beside it (default 90; none: 600, ≤ 1200)"
    )
    s.add_argument("--neighbour-cpu", default="500m", help="the neighbour's CPU request")
    s.add_argument("--threads", type=int, default=2, help="the neighbour's threads or writers")
    s.add_argument("--report-only", action="store_true", help="re-render the stored runs")
    s = add("incontext-check", incontext_check, "an in-context cut-off vs Gatling and the referee")
    s.add_argument("--definition", default="incontext-check", help="the experiment (make run up)")
    s.add_argument("--slo-class", default="gold-check", help="the definition's class")
    s.add_argument("--timeout", type=int, default=300, help="seconds for the calibration")
    s.add_argument("--report-only", action="store_true", help="re-render the stored run")
    s = add("pipeline-plot", pipeline_plot, "stage-breakdown plots of tuning-loop analyses")
    s.add_argument("analyses", type=Path, nargs="+")
    s.add_argument("--paper-fig8", action="store_true", help="also beside the paper's Fig. 8")
    s = add("pipeline-winners", pipeline_winners, "the settings an analysis kept, KEY=BEFORE:AFTER")
    s.add_argument("analysis", type=Path)
    s = add("section", section, "write the Markdown on stdin as section KEY of a page")
    s.add_argument("key", help="the section's markers: <!-- KEY:begin --> … <!-- KEY:end -->")
    s.add_argument("--page", type=Path, default=BENCHMARK_LOG)
    add("jfr-hot", jfr_hot_run, jfr_hot.__doc__.splitlines()[0], parents=[jfr_hot.parser(False)])
    return p


def subcommands() -> list[str]:
    return sorted(
        name
        for action in parser()._actions
        if isinstance(action, argparse._SubParsersAction)
        for name in action.choices
    )


def main(argv: list[str] | None = None) -> None:
    args, extra = parser().parse_known_args(argv)
    if args.command in PASSTHROUGH:
        # the options were checked above (parents); the program reads them again
        PASSTHROUGH[args.command](args, [a for a in (argv or sys.argv[1:])[1:]])
    elif extra:
        parser().error(f"unrecognized arguments: {' '.join(extra)}")
    else:
        args.run(args)


if __name__ == "__main__":
    main()
